@testable import Analytics
import DataQuality
@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// A purge the store cannot carry out is reported, not taken for done: with the store's write lock
/// held elsewhere while events wait in the journal, the runtime's privacy bridge notes that the
/// change was not applied, in `settle()`'s lines and in the diagnostics.
@Suite("A purge the store cannot carry out is reported", .serialized, .runsAlone)
struct PurgeFailureReportTests {
    @Test("the store locked past the deletion's wait: the failure is in the bridge's lines and the diagnostics")
    func aFailedPurgeIsReported() async throws {
        let directory = try TemporaryDirectory(prefix: "purge-failure")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        let diagnostics = Diagnostics()
        let bridge = ConsentBridge(dispatcher: dispatcher, diagnostics: diagnostics)
        let blocker = try SQLiteDatabase(path: storePath)
        try blocker.execute("BEGIN IMMEDIATE")
        let reporter = EventReporter<Shop>(plugins: [dispatcher])
        for index in 0..<20 { reporter.send(name: .view, action: .open, userData: ["i": .int(index)]) }
        // Held past the deletion's 10 s wait for the journal, then let go so the deletion ends.
        let release = Task {
            try await Task.sleep(nanoseconds: UInt64((Dispatcher.privacySettleTimeout + 0.5) * 1_000_000_000))
            try blocker.execute("ROLLBACK")
            blocker.close()
        }
        bridge.apply(.purged)
        let lines = await bridge.settle()
        try await release.value
        let issues = diagnostics.snapshot().recentIssues.filter { $0.code == "privacy_not_applied" }
        #expect(lines.contains { $0.contains("could not be applied") && $0.contains("not every event was erased") }, "\(lines)")
        #expect(issues.count == 1, "\(diagnostics.snapshot().recentIssues)")
        await dispatcher.close()
    }
}
