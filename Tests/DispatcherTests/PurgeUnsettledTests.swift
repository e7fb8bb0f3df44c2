@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// A purge that cannot reach every event says so: events still only in the journal, because the
/// store did not take them in time (its write lock held elsewhere), make it throw `notErased`
/// instead of returning as if everything were gone.
@Suite("A purge that cannot reach the journal's events throws", .serialized, .runsAlone)
struct PurgeUnsettledTests {
    @Test("the store locked: purge throws notErased; once the store works, purge again leaves nothing")
    func purgeWithTheStoreLockedThrows() async throws {
        let directory = try TemporaryDirectory(prefix: "purge-unsettled")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        let blocker = try SQLiteDatabase(path: storePath)
        try blocker.execute("BEGIN IMMEDIATE")
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for index in 0..<20 { reporter.send(name: .pay, action: .tap, userData: ["n": .int(index)]) }

        // The lock is let go once the wait for the journal gave up, while the deletion waits for it.
        let release = Task {
            try await Task.sleep(nanoseconds: 1_000_000_000)
            try blocker.execute("ROLLBACK")
            blocker.close()
        }
        await #expect {
            try await dispatcher.erase(keepingMetadata: false, settleTimeout: 0.5)
        } throws: { error in
            guard case StoreError.notErased(let path, _)? = error as? StoreError else { return false }
            return path == storePath
        }
        try await release.value
        try await dispatcher.purge()
        #expect(dispatcher.counters.store.total == 0)
        #expect(try dispatcher.records().isEmpty)
        await dispatcher.close()
    }

    @Test("a backlog the writer is still moving into the store is waited for, however long it takes, and erased")
    func aBacklogBeingWrittenIsWaitedFor() async throws {
        let directory = try TemporaryDirectory(prefix: "purge-backlog")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        let blocker = try SQLiteDatabase(path: storePath)
        try blocker.execute("BEGIN IMMEDIATE")
        let events = (0..<100_000).map { index in
            EncodedEvent(TrackedEvent(category: "Checkout", name: "pay", action: "tap", userData: ["n": .int(index)]))
        }
        #expect(dispatcher.backend?.ingest.write(contentsOf: events).written == events.count)
        try blocker.execute("ROLLBACK")
        blocker.close()
        // Far less time than writing 100,000 events takes; the writer commits within each window.
        let started = Date()
        try await dispatcher.erase(keepingMetadata: false, settleTimeout: 0.2)
        #expect(Date().timeIntervalSince(started) > 0.2, "the backlog was written in one window: the test proves nothing")
        #expect(dispatcher.counters.store.total == 0)
        await dispatcher.close()
        let reopened = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        #expect(reopened.counters.store.total == 0, "nothing came back from the journal")
        await reopened.close()
    }
}
