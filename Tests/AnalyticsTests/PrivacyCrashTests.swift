import Analytics
import DataQuality
import Dispatcher
import Foundation
import TestSupport
import Testing

/// Privacy decisions against `kill -9`: a child `demo privacy` stores held events, makes one
/// decision, and is killed with SIGKILL as soon as it says the call returned.
@Suite("Privacy decisions survive a kill right after the call", .serialized, .runsAlone)
struct PrivacyCrashTests {
    /// Runs `demo privacy` on `directory`'s store until it prints `decided`, then kills it.
    private func decideThenKill(_ directory: TemporaryDirectory, _ arguments: [String]) async throws {
        let child = try DemoProcess(["privacy", "--store", directory.file("store.sqlite").path, "--wait"] + arguments)
        let lines = await child.waitForLines(2, timeout: 60)
        child.kill()
        #expect(lines >= 2 && child.outputLines.last?.hasPrefix("decided") == true,
                "\(child.outputLines) \(child.standardError)")
    }

    private func restart(_ directory: TemporaryDirectory) async throws -> Analytics {
        var configuration = fastConfiguration(directory, store: "store.sqlite")
        configuration.consentCategories = ["Promotion"]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        return analytics
    }

    @Test("Denied, then SIGKILL: after a restart consent is denied, none of 20,000 held events is left, and a grant releases none")
    func denialThenKill() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-crash-deny")
        defer { directory.remove() }
        try await decideThenKill(directory, ["--decide", "denied", "--count", "20000"])
        let analytics = try await restart(directory)
        #expect(analytics.consent(for: "Promotion") == .denied)
        await analytics.settle()
        #expect(analytics.counters.store.held == 0)
        analytics.setConsent(.granted, for: "Promotion")
        await analytics.settle()
        #expect(analytics.counters.store.total == 0, "\(analytics.counters.store)")
        await analytics.close()
    }

    @Test("Granted, then SIGKILL: after a restart the 20,000 held events are pending")
    func grantThenKill() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-crash-grant")
        defer { directory.remove() }
        try await decideThenKill(directory, ["--decide", "granted", "--count", "20000"])
        let analytics = try await restart(directory)
        #expect(analytics.consent(for: "Promotion") == .granted)
        await analytics.settle()
        #expect(analytics.counters.store.held == 0 && analytics.counters.store.pending == 20_000, "\(analytics.counters.store)")
        await analytics.close()
    }

    @Test("Purge, and a settled denial, then SIGKILL: no planted value in the store, its log or the journal folder")
    func deletionsLeaveNothingAfterKill() async throws {
        let purged = try TemporaryDirectory(prefix: "privacy-crash-purge")
        defer { purged.remove() }
        try await decideThenKill(purged, ["--decide", "purge", "--count", "500", "--note", "PURGEPLANT"])
        #expect(occurrences(of: "PURGEPLANT", under: purged.url) == 0)
        let denied = try TemporaryDirectory(prefix: "privacy-crash-denied-disk")
        defer { denied.remove() }
        try await decideThenKill(denied, ["--decide", "denied", "--settle", "--count", "500", "--note", "DENYPLANT"])
        #expect(occurrences(of: "DENYPLANT", under: denied.url) == 0)
    }
}
