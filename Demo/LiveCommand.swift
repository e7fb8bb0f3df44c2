import Analytics
import DataQuality
import Dispatcher
import Foundation
import Tracking

/// `demo live [--store PATH] [--endpoint URL …] [--config FILE] [--port N]`: the runtime with
/// the web inspector on, sending the events read from standard input, one JSON object a line.
enum LiveCommand {
    /// The options `live` parses and its help lists.
    static let spec = CommandSpec(
        name: "live",
        synopsis: "[--store PATH] [--endpoint URL [--format segment|snowplow|ndjson] [--write-key K]] [--config FILE] [--port N]",
        summary: """
        Starts the Analytics runtime with the web inspector on 127.0.0.1, prints its address,
        then sends each line of standard input as one event through every stage:
        {"category": "Basket"|"Wishlist"|"Onboarding"|"Probe", "name": "…", "action": "…", "userData": {…}}.
        At the end of the input it delivers what is pending, closes and prints the counts.
        Exit 0 when every line was sent and every event stored, 1 otherwise (each bad line is
        named on standard error), 2 on a usage mistake.
        """,
        options: [
            .value("store", "PATH", "The store (default .demo/demo.sqlite)."),
            .value("endpoint", "URL", "Where to deliver, as for the journey."),
            .value("format", "segment|snowplow|ndjson", "The endpoint's format (default segment). Needs --endpoint."),
            .value("write-key", "K", "The Segment write key (or SEGMENT_WRITE_KEY). Never printed."),
            .value("config", "FILE", "An AnalyticsConfiguration JSON file; the options above override it."),
            .value("port", "N", "The inspector's port, 1 to 65535 (default: the configuration's, else any free port)."),
        ],
        brief: "Sends events read from standard input, with the web inspector on.")

    /// One input line.
    private struct Line: Decodable {
        var category: String
        var name: String
        var action: String
        var userData: UserData?
    }

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        let port = options.value("port") == nil ? nil : try options.int("port", default: 0, in: 1...65_535)
        var configuration = try JourneyCommand.loadConfiguration(options)
        // Without a file, each event is delivered as soon as it is stored: its timeline completes while watched.
        if options.value("config") == nil { configuration.batch.deliverySize = 1 }
        if let port { configuration.inspector = .init(port: port) }
        if configuration.inspector == nil { configuration.inspector = .init() }
        let analytics = try Analytics(configuration: configuration, contract: configuration.contractPath == nil ? try DemoContract.load() : nil)
        try await analytics.requireStore()
        guard let url = analytics.inspectorURL else {
            let reason = analytics.diagnostics.snapshot().recentIssues.last { $0.code == "inspector" }?.message ?? "it did not start"
            await analytics.close()
            throw DemoError("the inspector is not running: \(reason)")
        }
        say("inspector: \(url.absoluteString)")
        let start = analytics.counters
        var badLines = 0
        var number = 0
        while let text = readLine(strippingNewline: true) {
            number += 1
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            do {
                try send(try JSONDecoder().decode(Line.self, from: Data(text.utf8)), through: analytics)
            } catch {
                badLines += 1
                printError("demo live: line \(number): \(Self.reason(error))")
            }
        }
        let drained = await analytics.drain(timeout: 30)
        let counters = analytics.counters
        await analytics.close()
        let outcome = RunSummary(from: start, to: counters, strandedReason: drained.timedOut ? "the drain timed out" : nil)
        say("live: \(number) line\(number == 1 ? "" : "s"), \(badLines) not sent (not an event); \(outcome.line)")
        return badLines == 0 && drained.persisted && outcome.isComplete ? 0 : 1
    }

    private static func send(_ line: Line, through analytics: Analytics) throws {
        let (name, action, userData) = (LiveWord(rawValue: line.name), LiveWord(rawValue: line.action), line.userData ?? [:])
        switch line.category {
        case "Basket": analytics.reporter(for: LiveEvents.Basket.self).send(name: name, action: action, userData: userData)
        case "Wishlist": analytics.reporter(for: LiveEvents.Wishlist.self).send(name: name, action: action, userData: userData)
        case "Onboarding": analytics.reporter(for: LiveEvents.Onboarding.self).send(name: name, action: action, userData: userData)
        case "Probe": analytics.reporter(for: LiveEvents.Probe.self).send(name: name, action: action, userData: userData)
        default:
            throw DemoError("unknown category \"\(TerminalText.escaping(line.category, limit: 80))\" (known: \(LiveEvents.categories.joined(separator: ", ")))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not a JSON object with category, name and action" : "bad \"\(path)\""
        @unknown default: return "not a valid event line"
        }
    }
}
