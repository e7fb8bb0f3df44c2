@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// A collector's text reaches reports, the store and terminals only with its control
/// characters escaped, and cut short.
@Suite("Collector text is escaped and cut short")
struct CollectorTextTests {
    /// What forged a `flush: … all good` line and hid the output after it.
    static let forgery = "\u{1B}[2K\r\u{1B}[1Aflush: sent 0, delivered 500 … all good\n\u{1B}[8m"

    @Test("control characters become visible escapes: ESC as \\u{1B}, newline as \\n, C1 and bidi overrides too")
    func escapes() {
        #expect(CollectorText.sanitized("a\u{1B}[8mb") == "a\\u{1B}[8mb")
        #expect(CollectorText.sanitized("line\r\nnext\tend\u{7F}") == "line\\r\\nnext\\tend\\u{7F}")
        #expect(CollectorText.sanitized("\u{9B}31m\u{202E}txt") == "\\u{9B}31m\\u{202E}txt")
        #expect(CollectorText.sanitized("plain é ✓ text") == "plain é ✓ text")
        let sanitized = CollectorText.sanitized(Self.forgery)
        #expect(!sanitized.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(sanitized.hasPrefix("\\u{1B}[2K\\r\\u{1B}[1Aflush"))
    }

    @Test("cut at 200 characters once escaped, marked with …")
    func cutShort() {
        let long = String(repeating: "é", count: 5_000)
        let sanitized = CollectorText.sanitized(long)
        #expect(sanitized.count == 201 && sanitized.hasSuffix("…"))
        #expect(CollectorText.sanitized(bytes: Data(long.utf8)).count == 201)
        #expect(CollectorText.sanitized(bytes: Data("short".utf8), truncated: true) == "short…")
        #expect(CollectorText.sanitized(String(repeating: "x", count: 200)).count == 200)
        // 33 escapes of 6 characters fit in 200; an escape is never split.
        #expect(CollectorText.sanitized(String(repeating: "\u{1B}", count: 100)) == String(repeating: "\\u{1B}", count: 33) + "…")
    }

    @Test("a 500 whose body forges a terminal line: the retry reason, and so the stored last error, holds no control character")
    func retryReason() throws {
        let response = HTTPResponse(statusCode: 500, body: Data((Self.forgery + String(repeating: "z", count: 1_000)).utf8))
        guard case .retry(let reason, _) = DeliveryOutcome(response: response) else {
            Issue.record("a 500 was not a retry")
            return
        }
        #expect(!reason.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "got: \(reason.debugDescription)")
        #expect(reason.hasPrefix("HTTP 500: \\u{1B}[2K") && reason.count <= 220, "got: \(reason.debugDescription)")
        #expect(response.bodySnippet(limit: 10) == "\\u{1B}[2K…")
    }

    @Test("a redirect's Location host with a percent-encoded escape is shown escaped")
    func redirectHost() {
        let reason = DeliveryOutcome.redirectReason(status: 302, location: "http://%1B%5B8mhidden/x")
        #expect(!reason.contains("\u{1B}"), "got: \(reason.debugDescription)")
    }

    @Test("through a real collector on 127.0.0.1, the store's last error and the report hold the escaped text")
    func stored() async throws {
        let server = try LoopbackHTTPServer(defaultAction: .respond(status: 500, body: Data(Self.forgery.utf8)), lifetime: 20)
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "collector-text")
        defer { directory.remove() }
        let store = try EventStore(path: directory.file("store.sqlite").path)
        defer { store.close() }
        try store.insert(DeliveryFixtures.encodedEvents(3))
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "k", transport: DefaultHTTPTransport.make(requestTimeout: 5))
        let worker = DeliveryWorker(queue: store, destination: destination,
                                    configuration: DeliveryWorkerConfiguration(retryPolicy: RetryPolicy(baseDelay: 5, maxDelay: 5)))
        // The deadline only bounds the round, far enough that a test process whose pool is busy
        // with other tests when this one starts does not end the round before its first batch.
        let report = await worker.deliverAvailable(deadline: Date().addingTimeInterval(60))
        let reason = try #require(report.lastError)
        #expect(!reason.contains("\u{1B}") && !reason.contains("\n") && reason.contains("\\u{1B}[8m"), "got: \(reason.debugDescription)")
        let rows = try store.query(StoreQuery(status: .pending))
        #expect(rows.count == 3 && rows.allSatisfy { $0.lastError == reason })
    }
}
