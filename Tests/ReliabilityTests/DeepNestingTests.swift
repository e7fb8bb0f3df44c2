@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// userData nested 100 and 10,000 levels deep, objects and arrays: nothing crashes, and every
/// wire format carries valid JSON with the value cut at depth 32 and the event flagged.
@Suite("Reliability: DeepNesting", .serialized, .runsAlone)
struct DeepNestingTests {
    /// How the events reach the plugins.
    enum Route: String, Sendable, CaseIterable {
        /// Through an `EventReporter`, which cuts and flags where events are built.
        case reporter
        /// Hand-built `TrackedEvent`s given straight to each plugin's `send`.
        case direct
    }

    static let shapes: [(kind: DeepValue.Kind, depth: Int)] = [(.object, 100), (.array, 100), (.object, 10_000), (.array, 10_000)]

    /// What every wire must show for one deep event: `deep` cut after 31 levels below the
    /// userData object (32 in all), the placeholder at the bottom, the sibling intact.
    private static func checkUserData(_ userData: Any?, _ label: String) {
        guard let members = userData as? [String: Any] else {
            Issue.record("\(label): userData is not an object: \(String(describing: userData).prefix(200))")
            return
        }
        let (containers, bottom) = DeepValue.chain(members["deep"])
        #expect(containers == DeepValue.limit - 1, "\(label): \(containers) levels below userData")
        #expect(bottom as? String == DeepValue.placeholder, "\(label): bottom \(String(describing: bottom).prefix(80))")
        #expect(members["after"] as? String == "sibling", "\(label): sibling lost")
        #expect(members.count == 2, "\(label): \(members.keys.sorted())")
    }

    /// Whether a parsed flags array holds the truncation flag for userData.
    private static func hasFlag(_ flags: Any?) -> Bool {
        (flags as? [[String: Any]] ?? []).contains { $0["code"] as? String == DeepValue.flagCode && $0["detail"] as? String == "userData" }
    }

    @Test("100- and 10,000-deep objects and arrays reach Segment, Snowplow (structured and self-describing), NDJSON, the console and the monitor cut at depth 32, flagged, as valid JSON",
          arguments: Route.allCases)
    func deepUserDataIsCutAndFlaggedOnEveryWire(route: Route) async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-deep-nesting")
        defer { directory.remove() }
        let segmentServer = try LoopbackHTTPServer(lifetime: 60)
        defer { segmentServer.stop() }
        let structuredServer = try LoopbackHTTPServer(lifetime: 60)
        defer { structuredServer.stop() }
        let selfDescribingServer = try LoopbackHTTPServer(lifetime: 60)
        defer { selfDescribingServer.stop() }
        let outbox = directory.file("outbox/events.ndjson")

        func dispatcher(_ name: String, _ destination: any Destination) throws -> Dispatcher {
            try Dispatcher(configuration: DispatcherConfiguration(
                storePath: directory.file("\(name).sqlite").path, destination: destination,
                batch: BatchConfiguration(deliverySize: 50, flushInterval: 0), deliveredHistory: 100))
        }
        let ndjson = try dispatcher("ndjson", NDJSONFileDestination(fileURL: outbox))
        let segment = try dispatcher("segment", SegmentDestination(endpoint: segmentServer.baseURL, writeKey: "deep",
                                                                   transport: URLSessionTransport(requestTimeout: 10)))
        let structured = try dispatcher("structured", SnowplowDestination(endpoint: structuredServer.baseURL, appID: "deep",
                                                                          transport: URLSessionTransport(requestTimeout: 10)))
        let selfDescribing = try dispatcher("self-describing", SnowplowDestination(
            endpoint: selfDescribingServer.baseURL, appID: "deep", transport: URLSessionTransport(requestTimeout: 10),
            encoding: .selfDescribing(schema: "iglu:com.example/probe/jsonschema/1-0-0")))
        let dispatchers = [ndjson, segment, structured, selfDescribing]
        let consoleText = TextBuffer()
        let console = ConsoleReporter(stream: consoleText)
        let plugins: [any EventReporterPlugin] = dispatchers + [console]
        let reporter = EventReporter<Probe>(plugins: plugins)

        var sent: [String] = []
        for shape in Self.shapes {
            let userData: UserData = ["deep": DeepValue.make(shape.kind, depth: shape.depth), "after": "sibling"]
            let receipts: [Receipt]
            switch route {
            case .reporter:
                receipts = reporter.send(name: .tap, action: .open, userData: userData)
            case .direct:
                let event = TrackedEvent(category: Probe.category, name: "tap", action: "open", userData: userData)
                receipts = plugins.compactMap { $0.send(event) }
            }
            #expect(receipts.count == plugins.count && Set(receipts.map(\.eventID)).count == 1, "\(shape): \(receipts.count) receipts")
            sent.append(receipts.first?.eventID.uuidString.lowercased() ?? "none")
        }
        for dispatcher in dispatchers {
            #expect(await dispatcher.flushUntilSettled(timeout: 30))
            #expect(dispatcher.counters.delivered == sent.count, "\(dispatcher.counters)")
        }

        // NDJSON: one valid line per event.
        let lines = try Data(contentsOf: outbox).split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == sent.count)
        for line in lines {
            let object = try #require(try DeepValue.parse(line) as? [String: Any])
            let id = object["id"] as? String ?? "?"
            #expect(sent.contains(id))
            Self.checkUserData(object["userData"], "NDJSON \(id)")
            #expect(Self.hasFlag(object["flags"]), "NDJSON \(id): flags \(String(describing: object["flags"]))")
        }

        // Segment: properties hold the userData members; context.flags the flags.
        var segmentIDs: [String] = []
        for request in segmentServer.requests {
            let body = try #require(try DeepValue.parse(request.body) as? [String: Any])
            for message in body["batch"] as? [[String: Any]] ?? [] {
                let id = message["messageId"] as? String ?? "?"
                segmentIDs.append(id)
                var properties = message["properties"] as? [String: Any] ?? [:]
                #expect(properties.removeValue(forKey: "category") as? String == Probe.category)
                properties["name"] = nil
                properties["action"] = nil
                Self.checkUserData(properties, "Segment \(id)")
                let context = message["context"] as? [String: Any]
                #expect(Self.hasFlag(context?["flags"]), "Segment \(id): context \(String(describing: context))")
            }
        }
        #expect(segmentIDs.sorted() == sent.sorted())

        // Snowplow structured: se_pr is the userData JSON as a string (no place for flags).
        var structuredIDs: [String] = []
        for request in structuredServer.requests {
            let body = try #require(try DeepValue.parse(request.body) as? [String: Any])
            for event in body["data"] as? [[String: Any]] ?? [] {
                let id = event["eid"] as? String ?? "?"
                structuredIDs.append(id)
                let properties = try DeepValue.parse(Array((event["se_pr"] as? String ?? "").utf8))
                Self.checkUserData(properties, "Snowplow structured \(id)")
            }
        }
        #expect(structuredIDs.sorted() == sent.sorted())

        // Snowplow self-describing: ue_pr wraps {"schema", "data": {…, "userData", "flags"}}.
        var selfDescribingIDs: [String] = []
        for request in selfDescribingServer.requests {
            let body = try #require(try DeepValue.parse(request.body) as? [String: Any])
            for event in body["data"] as? [[String: Any]] ?? [] {
                let id = event["eid"] as? String ?? "?"
                selfDescribingIDs.append(id)
                let wrapper = try DeepValue.parse(Array((event["ue_pr"] as? String ?? "").utf8)) as? [String: Any]
                let data = (wrapper?["data"] as? [String: Any])?["data"] as? [String: Any]
                Self.checkUserData(data?["userData"], "Snowplow self-describing \(id)")
                #expect(Self.hasFlag(data?["flags"]), "Snowplow self-describing \(id): \(String(describing: data?["flags"]))")
            }
        }
        #expect(selfDescribingIDs.sorted() == sent.sorted())

        // The monitor: every record shows the cut userData and the flag.
        for dispatcher in dispatchers {
            let records = try dispatcher.records(StoreQuery(status: .delivered, limit: 100))
            #expect(records.map { $0.id.uuidString.lowercased() }.sorted() == sent.sorted())
            for record in records {
                let label = "monitor \(record.id)"
                let (containers, bottom) = DeepValue.chain(record.userData["deep"])
                #expect(containers == DeepValue.limit - 1, "\(label): \(containers) levels; userData \(record.userData.keys.sorted())")
                #expect(bottom == .string(DeepValue.placeholder), "\(label): bottom \(String(describing: bottom))")
                #expect(record.userData["after"] == "sibling")
                #expect(record.flags.contains("\(DeepValue.flagCode)(userData)"), "\(label): flags \(record.flags)")
                let exported = try DeepValue.parse(Array(JSONEncoder().encode([record]))) as? [[String: Any]]
                Self.checkUserData(exported?.first?["userData"], "monitor export \(record.id)")
            }
        }

        // The console: one line per event; the userData JSON parses and is cut. Through the
        // reporter the line also shows the flag (a hand-built event carries only its own flags).
        let consoleLines = consoleText.lines
        #expect(consoleLines.count == sent.count)
        for line in consoleLines {
            let start = try #require(line.range(of: "  {"))
            let end = line.range(of: "  ⚑ ")?.lowerBound ?? line.endIndex
            Self.checkUserData(try DeepValue.parse(Array(("{" + line[start.upperBound..<end]).utf8)), "console")
            if route == .reporter { #expect(line.hasSuffix("⚑ \(DeepValue.flagCode)(userData)"), "console: \(line.suffix(80))") }
        }

        for dispatcher in dispatchers { await dispatcher.close() }
    }

    @Test("A hand-built event with 10,000-deep context and userData is stored and written cut, with both flags", arguments: DeepValue.Kind.allCases)
    func deepContextIsCutAndFlaggedToo(kind: DeepValue.Kind) async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-deep-context")
        defer { directory.remove() }
        let outbox = directory.file("events.ndjson")
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: NDJSONFileDestination(fileURL: outbox),
            batch: BatchConfiguration(deliverySize: 10, flushInterval: 0)))
        let event = TrackedEvent(category: Probe.category, name: "tap", action: "open",
                                 userData: ["deep": DeepValue.make(kind, depth: 10_000), "after": "sibling"],
                                 context: ["deep": DeepValue.make(kind, depth: 10_000), "after": "sibling"],
                                 flags: [.nonFiniteNumber])
        #expect(dispatcher.send(event) != nil)
        #expect(await dispatcher.flushUntilSettled(timeout: 30))
        let line = try #require(try DeepValue.parse(Data(contentsOf: outbox)) as? [String: Any])
        Self.checkUserData(line["userData"], "userData")
        Self.checkUserData(line["context"], "context")
        let flags = (line["flags"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "")(\($0["detail"] ?? "-"))" }
        #expect(flags == ["non_finite_number(-)", "\(DeepValue.flagCode)(userData)", "\(DeepValue.flagCode)(context)"])
        await dispatcher.close()
    }
}
