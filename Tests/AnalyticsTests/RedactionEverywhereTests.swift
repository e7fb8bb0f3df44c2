import Analytics
@testable import DataQuality
import Dispatcher
import Foundation
import LoopbackHTTP
import TestSupport
import Testing
import Tracking
import TrackingTestKit

/// A redacted key's raw value, at any depth, reaches no output: a contract whose violations
/// would describe a container holding sensitive keys (`wrong_type`, `value_not_allowed`) is the
/// way around top-level redaction this suite plants values through. Every output is grepped:
/// the wire (a loopback collector), the store file and its log, the journal folder, the monitor
/// (in process and `demo monitor` as a child), the console, and the diagnostics (the snapshot
/// and the diagnostic events tracked, which are on the wire too).
@Suite("Redaction at any depth, in every output")
struct RedactionEverywhereTests {
    /// Values planted under sensitive keys; none may appear anywhere.
    static let planted = ["RAW3@x.io", "RAW4pw", "RAW5-555", "RAW6@y.io"]

    static let contract = """
    {"categories": {"Shop": {"fields": {
      "profile": {"type": "string"},
      "prefs": {"type": "object", "allowed": [{"theme": "dark"}]},
      "plan": {"type": "string"}
    }}}}
    """

    /// Every file under `folder`, read whole.
    static func files(_ folder: URL) -> [(name: String, data: Data)] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var result: [(String, Data)] = []
        while let name = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) { result.append((name, data)) }
        }
        return result
    }

    /// The planted values found in `data`, as `where: value`.
    static func leaks(in data: Data, at place: String) -> [String] {
        planted.filter { data.range(of: Data($0.utf8)) != nil }.map { "\(place): \($0)" }
    }

    @Test("wrong_type and value_not_allowed on containers holding sensitive keys: no raw value anywhere")
    func noRawValueInAnyOutput() async throws {
        let directory = try TemporaryDirectory(prefix: "redaction-everywhere")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.diagnostics.trackAsEvents = true
        configuration.deliveredHistory = 100
        let console = TextBuffer()
        let contract = try DataContract.decode(Data(Self.contract.utf8))
        let analytics = try Analytics(configuration: configuration, plugins: [ConsoleReporter(stream: console)], contract: contract)
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        shop.send(name: .signup, action: .tap, userData: [
            "profile": ["email": "RAW3@x.io", "list": [["Password": "RAW4pw"]], "city": "Berlin"],
            "prefs": ["phone": "RAW5-555", "theme": "light"],
            "plan": "pro",
        ])
        shop.send(name: .view, action: .open, userData: ["profile": [["contact": ["EMAIL": "RAW6@y.io"]]]])
        #expect(await analytics.drain(timeout: 10).persisted)
        var sent = false
        for _ in 0..<20 where !sent {
            _ = await analytics.drain(timeout: 10).report
            sent = server.requests.contains { $0.body.range(of: Data("Tracking error validation".utf8)) != nil }
            if !sent { await pause(0.1) }
        }
        #expect(sent, "the diagnostic events were sent")

        var leaks: [String] = []
        // The violations are there, described without the values.
        let records = try analytics.records(StoreQuery(status: .delivered))
        let flags = records.flatMap(\.flags)
        #expect(flags.contains { $0.hasPrefix("wrong_type") && $0.contains("(redacted)") && $0.contains("Berlin") }, "\(flags)")
        #expect(flags.contains { $0.hasPrefix("value_not_allowed") && $0.contains("(redacted)") }, "\(flags)")
        leaks += Self.leaks(in: try JSONEncoder().encode(records), at: "monitor records")
        leaks += Self.leaks(in: Data(console.text.utf8), at: "console")
        let snapshot = analytics.diagnostics.snapshot()
        #expect(snapshot.issues(.validation) >= 2)
        leaks += Self.leaks(in: Data((snapshot.description + snapshot.recentIssues.map(\.message).joined()).utf8), at: "diagnostics")
        for file in Self.files(directory.url) { leaks += Self.leaks(in: file.data, at: file.name) }

        let wire = server.requests.map(\.body).reduce(Data(), +)
        #expect(wire.range(of: Data("(redacted)".utf8)) != nil)
        leaks += Self.leaks(in: wire, at: "wire")
        await analytics.close()
        for file in Self.files(directory.url) { leaks += Self.leaks(in: file.data, at: "\(file.name) after close") }

        let monitor = try DemoProcess(["monitor", "--store", directory.file("events.sqlite").path, "--status", "all", "--format", "csv"])
        #expect(await monitor.wait(timeout: 60) == 0, "\(monitor.standardError)")
        leaks += Self.leaks(in: Data(monitor.outputLines.joined(separator: "\n").utf8), at: "demo monitor")
        #expect(leaks.isEmpty, "\(leaks)")
    }

    @Test("The validator masks sensitive keys at any depth and any case; other values stay readable")
    func validatorMasksNestedValues() throws {
        let contract = try DataContract.decode(Data(Self.contract.utf8))
        let validator = ContractValidator(contract, redactedFields: ["email", "password"])
        let event = TrackedEvent(category: "Shop", name: "n", action: "a", userData: [
            "profile": ["a": [["b": ["EmAiL": "RAW3@x.io"]]], "password": ["deep": "RAW4pw"], "city": "Berlin"],
        ])
        let flagged = try #require(validator.processed(event))
        let detail = flagged.flags.map(\.description).joined()
        #expect(!detail.contains("RAW3@x.io") && !detail.contains("RAW4pw"), "\(detail)")
        #expect(detail.contains("Berlin") && detail.contains("(redacted)"), "\(detail)")
    }
}
