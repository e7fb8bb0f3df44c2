@testable import Dispatcher
import Foundation
import Testing
import TestSupport
@testable import Tracking

/// A seeded, randomised run of hostile data through two Dispatchers: one writing NDJSON, one
/// delivering Segment batches to a real collector on 127.0.0.1.
@Suite("Reliability: BadInput", .serialized, .runsAlone)
struct BadInputTests {
    static let seed: UInt64 = 0xBAD_1A9E7
    static let eventCount = 3_000
    /// The journal's segments are 4 MiB: an event whose JSON is larger cannot be made durable.
    static let journalRecordLimit = 4 << 20

    /// An event as it was handed to the reporter.
    private struct Sent {
        var id: UUID
        var name: String
        var action: String
        var userData: UserData
        var kind: HostileUserData.Kind
        /// The JSON size of userData when known without encoding it (huge events), else nil.
        var knownJSONBytes: Int?
    }

    /// One NDJSON line, parsed.
    private struct Line {
        var id: String
        var category: String?
        var name: String?
        var action: String?
        var userData: UserDataValue?
        var flagCodes: [String]

        init(_ bytes: some Collection<UInt8>) throws {
            guard case .object(let members) = try JSONValueParser.parse(bytes), let id = members["id"]?.stringValue else {
                throw SegmentCapture.Malformed(description: "an NDJSON line without an id")
            }
            self.id = id
            category = members["category"]?.stringValue
            name = members["name"]?.stringValue
            action = members["action"]?.stringValue
            userData = members["userData"]
            if case .array(let flags)? = members["flags"] {
                flagCodes = flags.compactMap { if case .object(let flag) = $0 { flag["code"]?.stringValue } else { nil } }
            } else {
                flagCodes = []
            }
        }
    }

    /// The huge events and where they go: three of 1 MB, one of 64 KB of NUL characters (384 KB
    /// as JSON), ten between 40 and 60 KB, all far above Segment's 32 KB per message; and one of
    /// 4.5 MB, above the journal's record limit.
    private static func hugePlan(_ random: inout SeededGenerator) -> [Int: (bytes: Int, unit: String, escapedSize: Int)] {
        var plan: [Int: (bytes: Int, unit: String, escapedSize: Int)] = [
            100: (1 << 20, "a", 1), 800: (1 << 20, "é", 1), 1_500: (1 << 20, "😀", 1), 2_200: (9 << 19, "a", 1),
            2_500: (1 << 16, "\u{0}", 6),
        ]
        for index in stride(from: 150, to: eventCount, by: 300) {
            let unit = ["a", "\"", "é"].randomElement(using: &random) ?? "a"
            plan[index] = (Int.random(in: 40_000...60_000, using: &random), unit, unit == "\"" ? 2 : 1)
        }
        return plan
    }

    @Test("3,000 events of empty, 1 MB, non-finite, 50-deep and unusual-Unicode data: nothing crashes, oversized events are refused with a reason and counted, 50-deep data is cut at depth 32 and flagged, everything else arrives intact")
    func hostileData() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-bad-input")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 90)
        defer { server.stop() }
        let outbox = directory.file("outbox/events.ndjson")
        let batch = BatchConfiguration(deliverySize: 200, flushInterval: 0)
        let ndjsonLog = DiagnosticLog()
        let segmentLog = DiagnosticLog()
        let ndjson = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("ndjson.sqlite").path, destination: NDJSONFileDestination(fileURL: outbox), batch: batch,
            onDiagnostic: ndjsonLog.handler))
        let segmentDestination = try SegmentDestination(endpoint: server.baseURL, writeKey: "reliability-key",
                                                        transport: URLSessionTransport(requestTimeout: 10))
        let segment = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("segment.sqlite").path, destination: segmentDestination, batch: batch,
            onDiagnostic: segmentLog.handler))
        let reporter = EventReporter<Probe>(plugins: [ndjson, segment])

        // Send: every event is either accepted by both Dispatchers or refused by both.
        var generator = HostileUserData(seed: Self.seed)
        let plan = Self.hugePlan(&generator.random)
        var sent: [Sent] = []
        var refusedAtSend: [Sent] = []
        var kinds: [HostileUserData.Kind: Int] = [:]
        for index in 0..<Self.eventCount {
            var (userData, kind) = generator.next()
            var knownJSONBytes: Int?
            if let huge = plan[index] {
                userData = generator.huge(bytes: huge.bytes, unit: huge.unit)
                kind = .huge
                knownJSONBytes = huge.bytes * huge.escapedSize
            }
            kinds[kind, default: 0] += 1
            let name = Probe.Name.allCases[index % Probe.Name.allCases.count]
            let action = Probe.Action.allCases[(index / 3) % Probe.Action.allCases.count]
            let receipts = reporter.send(name: name, action: action, userData: userData)
            let ids = Set(receipts.map(\.eventID))
            #expect(receipts.count == 0 || (receipts.count == 2 && ids.count == 1), "event \(index) (\(kind)): \(receipts.count) receipts")
            guard let id = ids.first else {
                refusedAtSend.append(Sent(id: UUID(), name: name.rawValue, action: action.rawValue, userData: userData, kind: kind,
                                          knownJSONBytes: knownJSONBytes))
                continue
            }
            sent.append(Sent(id: id, name: name.rawValue, action: action.rawValue, userData: userData, kind: kind,
                             knownJSONBytes: knownJSONBytes))
        }
        #expect(HostileUserData.Kind.allCases.allSatisfy { kinds[$0, default: 0] > 0 }, "seed \(Self.seed) missed a kind: \(kinds)")

        // Only what cannot fit the crash-safe journal is refused at send: counted and reported.
        #expect(refusedAtSend.count == 1 && refusedAtSend.allSatisfy { ($0.knownJSONBytes ?? 0) > Self.journalRecordLimit },
                "refused at send: \(refusedAtSend.map { "\($0.kind) \($0.knownJSONBytes ?? -1) bytes" })")
        #expect(sent.allSatisfy { ($0.knownJSONBytes ?? 0) <= Self.journalRecordLimit })

        let ndjsonSettled = await ndjson.flushUntilSettled(timeout: 30)
        let segmentSettled = await segment.flushUntilSettled(timeout: 30)
        #expect(ndjsonSettled && segmentSettled)
        let ndjsonCounters = ndjson.counters
        let segmentCounters = segment.counters
        for (counters, log) in [(ndjsonCounters, ndjsonLog), (segmentCounters, segmentLog)] {
            #expect(counters.refused == refusedAtSend.count && counters.sent == Self.eventCount, "\(counters)")
            #expect(log.contains("exceeds the journal record limit"), "no reason reported for the refused event: \(log.messages)")
        }
        #expect(ndjsonCounters.flagged > 0, "non-finite numbers were not flagged")

        // Which events are too large for Segment's 32 KB per message; a margin around the limit
        // (the message's own fields) may go either way.
        var mustReject = Set<UUID>()
        var mustDeliver = Set<UUID>()
        for event in sent {
            let size = event.knownJSONBytes ?? Tracking.JSONText.encode(.object(event.userData)).utf8.count
            if size > 34_000 { mustReject.insert(event.id) } else if size < 30_000 { mustDeliver.insert(event.id) }
        }
        #expect(mustReject.count >= 10, "the run made too few oversized events: \(mustReject.count)")

        // Segment: oversized events rejected with a reason and counted; the rest delivered intact.
        let rejectedRecords = try segment.records(StoreQuery(status: .rejected, limit: 10_000))
        let rejected = Set(rejectedRecords.map(\.id))
        #expect(mustReject.isSubset(of: rejected), "\(mustReject.subtracting(rejected).count) oversized events were not rejected")
        #expect(rejected.isDisjoint(with: mustDeliver), "\(rejected.intersection(mustDeliver).count) small events were rejected")
        #expect(rejectedRecords.allSatisfy { ($0.lastError ?? "").contains("exceeds the 32000-byte limit") },
                "reasons: \(Set(rejectedRecords.map { $0.lastError ?? "nil" }).prefix(3))")
        #expect(segmentCounters.rejected == rejected.count && segmentCounters.store.rejected == rejected.count)
        #expect(segmentCounters.delivered + rejected.count == sent.count, "\(segmentCounters)")

        let messages = try SegmentCapture.requests(server).filter(\.acknowledged).flatMap(\.messages)
        var byID: [String: SegmentMessage] = [:]
        for message in messages { byID[message.messageId] = message }
        #expect(byID.count == messages.count, "a message was delivered twice")
        var segmentMismatches: [String] = []
        for event in sent where !rejected.contains(event.id) {
            guard let message = byID[event.id.uuidString.lowercased()] else {
                segmentMismatches.append("\(event.id) (\(event.kind)): never delivered")
                continue
            }
            var expected: UserData = ["category": .string(Probe.category), "name": .string(event.name), "action": .string(event.action)]
            for (key, value) in UserDataComparison.cutToLimit(event.userData) {
                expected[["category", "name", "action"].contains(key) ? "userData." + key : key] = value
            }
            if let difference = UserDataComparison.firstDifference(
                UserDataComparison.jsonForm(.object(expected)), .object(message.properties)) {
                segmentMismatches.append("\(event.id) (\(event.kind)): \(difference)")
            }
            if message.event != "\(Probe.category) \(event.name) \(event.action)" { segmentMismatches.append("\(event.id): event name") }
        }
        #expect(segmentMismatches.isEmpty, "\(segmentMismatches.count) Segment mismatches, e.g. \(segmentMismatches.prefix(3))")

        // NDJSON has no per-event limit: every accepted event arrives, with exactly the userData
        // bytes encoded on the sender's thread, decoding to the values sent.
        #expect(ndjsonCounters.delivered == sent.count && ndjsonCounters.rejected == 0, "\(ndjsonCounters)")
        let file = try [UInt8](Data(contentsOf: outbox))
        let lines = file.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        #expect(lines.count == sent.count)
        var decodedByID: [String: (line: Line, bytes: ArraySlice<UInt8>)] = [:]
        for line in lines {
            let decoded = try Line(line)
            decodedByID[decoded.id] = (decoded, line)
        }
        #expect(decodedByID.count == lines.count, "NDJSON lines repeat an id")
        let userDataMarker = Array(#","userData":"#.utf8)
        let contextMarker = Array(#","context":"#.utf8)
        var ndjsonMismatches: [String] = []
        for event in sent {
            guard let (line, bytes) = decodedByID[event.id.uuidString.lowercased()] else {
                ndjsonMismatches.append("\(event.id) (\(event.kind)): missing")
                continue
            }
            if line.category != Probe.category || line.name != event.name || line.action != event.action {
                ndjsonMismatches.append("\(event.id): category, name or action differ")
            }
            if let difference = UserDataComparison.firstDifference(
                UserDataComparison.jsonForm(.object(UserDataComparison.cutToLimit(event.userData))), line.userData ?? .null) {
                ndjsonMismatches.append("\(event.id) (\(event.kind)): \(difference)")
            }
            if line.flagCodes.contains(DeepValue.flagCode) != (event.kind == .nested) {
                ndjsonMismatches.append("\(event.id) (\(event.kind)): flags \(line.flagCodes)")
            }
            let expectedBytes = EncodedEvent(TrackedEvent(id: event.id, category: Probe.category, name: event.name,
                                                          action: event.action, userData: event.userData)).userDataBlob
            let start = bytes.firstRange(of: userDataMarker).map(\.upperBound)
            let matches = start.map { start in
                let end = start + expectedBytes.count
                return end <= bytes.endIndex && bytes[start..<end].elementsEqual(expectedBytes) && bytes[end...].starts(with: contextMarker)
            } ?? false
            if !matches { ndjsonMismatches.append("\(event.id) (\(event.kind)): userData bytes differ") }
        }
        #expect(ndjsonMismatches.isEmpty, "\(ndjsonMismatches.count) NDJSON mismatches, e.g. \(ndjsonMismatches.prefix(3))")

        await ndjson.close()
        await segment.close()
        let summary = kinds.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")
        print("bad input: \(Self.eventCount) events (\(summary)); refused at send \(refusedAtSend.count), Segment rejected \(rejected.count), NDJSON delivered \(lines.count)")
    }
}
