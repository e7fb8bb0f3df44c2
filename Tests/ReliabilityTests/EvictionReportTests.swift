@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Eviction is reported once a second with the running total, not once per insert, and a
/// `demo generate` run that evicted exits 1: the evicted events will never be delivered.
@Suite("Integrity: eviction is reported once a second and fails generate", .serialized, .runsAlone)
struct EvictionReportTests {
    @Test("50 inserts that each evict: at most one diagnostic a second, carrying the running total")
    func evictionDiagnosticIsRateLimited() async throws {
        let directory = try TemporaryDirectory(prefix: "eviction-report")
        defer { directory.remove() }
        let log = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, batch: BatchConfiguration(maxQueueSize: 10), onDiagnostic: log.handler))
        let started = Date()
        // Each round is drained before the next: one insert, and one eviction, per round.
        for _ in 0..<50 {
            for _ in 0..<20 { _ = dispatcher.send(TrackedEvent(category: "Probe", name: "view", action: "open")) }
            _ = await dispatcher.drain(timeout: 10)
        }
        let elapsed = Date().timeIntervalSince(started)
        let evicted = dispatcher.counters.evicted
        await dispatcher.close()
        #expect(evicted == 50 * 20 - 10)
        let reports = log.messages.filter { $0.contains("evicted") }
        #expect(!reports.isEmpty)
        #expect(reports.count <= Int(elapsed) + 1, "\(reports.count) reports in \(elapsed) s: \(reports.prefix(3))")
        #expect(reports.allSatisfy { $0.contains("evicted so far") && $0.contains("maxQueueSize 10") }, "\(reports.prefix(3))")
        // The totals run up, and never past what was evicted.
        let totals = reports.compactMap { $0.split(separator: ";").last?.split(separator: " ").first.flatMap { Int($0) } }
        #expect(totals.count == reports.count && totals == totals.sorted() && (totals.last ?? 0) <= evicted, "\(totals)")
    }

    @Test("demo generate into a full store (1,000,000 pending): exit 1, evicted counted, one diagnostic a second")
    func generateThatEvictsExitsOne() async throws {
        let directory = try TemporaryDirectory(prefix: "eviction-generate")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        try Self.fill(storePath, pending: BatchConfiguration().maxQueueSize)
        let run = try await ChildRun.run(try ChildRun.demo(), ["generate", "--count", "50000", "--store", storePath], timeout: 300)
        #expect(run.status == 1, "\(run.standardError.suffix(600))")
        #expect(run.standardError.contains("sent 50000, persisted 50000, refused 0, evicted 50000"), "\(run.standardError.suffix(600))")
        #expect(run.standardError.contains("will never be delivered"), "\(run.standardError.suffix(600))")
        let reports = run.standardError.split(separator: "\n").filter { $0.contains("storage: evicted") }
        #expect(!reports.isEmpty && reports.count <= Int(run.seconds) + 1, "\(reports.count) reports in \(run.seconds) s")
        let store = try EventStore(path: storePath, readOnly: true)
        #expect(store.counts().pending == BatchConfiguration().maxQueueSize, "\(store.counts())")
        store.close()
    }

    @Test("demo generate that evicts nothing still exits 0")
    func generateWithoutEvictionExitsZero() async throws {
        let directory = try TemporaryDirectory(prefix: "eviction-none")
        defer { directory.remove() }
        let run = try await ChildRun.run(try ChildRun.demo(), ["generate", "--count", "1000", "--store", directory.file("s.sqlite").path], timeout: 120)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains("storage: evicted"), "\(run.standardError)")
    }

    /// Creates a store at `path` holding `pending` small pending events, written by SQL in one
    /// statement (a million sends would take the test far longer).
    static func fill(_ path: String, pending: Int) throws {
        try EventStore(path: path).close()
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        try database.transaction {
            try database.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(pending))
                INSERT INTO events (id, ts, category, name, action, user_data, context, flags, created_at, size)
                SELECT randomblob(16), 0, 'Fill', 'view', 'open', x'', x'', x'', 0, 100 FROM n
                """)
            try database.execute("UPDATE counters SET pending = \(pending), bytes = \(pending * 100) WHERE id = 1")
        }
    }
}
