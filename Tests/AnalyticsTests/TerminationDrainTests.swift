@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// The opt-in termination drain, in a real child process (`demo generate --drain-on-signal`)
/// sending continuously: SIGTERM or SIGINT mid-run ends it by that signal within the drain
/// timeout, with every id printed before the signal in the SQLite store itself (drained, not
/// left in the journal) and every id printed at all in the store or its journal.
@Suite("Termination drain (SIGTERM, SIGINT) in a real child", .serialized, .runsAlone)
struct TerminationDrainTests {
    /// The child's `--drain-timeout`.
    static let drainTimeout: TimeInterval = 3
    /// Allowance for a loaded 2-core machine, on top of the drain timeout.
    static let margin: TimeInterval = 4

    // The time limits only catch a hang: they also count the wait for the other `.runsAlone`
    // tests to finish, several minutes in a parallel run.

    @Test("SIGTERM mid-run: ended by SIGTERM within the drain timeout; everything sent before it is in the store", .timeLimit(.minutes(10)))
    func sigtermDrains() async throws {
        try await drainsThenEnds(by: SIGTERM)
    }

    @Test("SIGINT mid-run: ended by SIGINT within the drain timeout; everything sent before it is in the store", .timeLimit(.minutes(10)))
    func sigintDrains() async throws {
        try await drainsThenEnds(by: SIGINT)
    }

    @Test("Without --drain-on-signal, SIGTERM ends the run at once by its default action", .timeLimit(.minutes(10)))
    func withoutTheOptionSigtermEndsAtOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "drain-control")
        defer { directory.remove() }
        let child = try DemoProcess(["generate", "--count", "100000000", "--store", directory.file("store.sqlite").path, "--print-ids"])
        try #require(await child.waitForLines(500, timeout: 30) >= 500, "the child printed no ids: \(child.standardError)")
        let signalled = Date()
        kill(child.pid, SIGTERM)
        let status = await child.wait(timeout: 10)
        let elapsed = Date().timeIntervalSince(signalled)
        if status == nil { child.kill() }
        // Foundation reports a process ended by a signal with the signal's number as its status.
        #expect(status == SIGTERM, "status \(String(describing: status)): \(child.standardError.suffix(300))")
        #expect(elapsed < 2, "the default action took \(elapsed) s")
        #expect(!child.standardError.contains("generate: sent"), "no summary after a signal")
    }

    /// Starts a child that sends continuously with the drain on, signals it once it printed
    /// ids, and checks how and when it ended and what the store holds.
    private func drainsThenEnds(by number: Int32) async throws {
        let directory = try TemporaryDirectory(prefix: "drain-\(number)")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let child = try DemoProcess([
            "generate", "--count", "100000000", "--store", storePath, "--print-ids",
            "--drain-on-signal", "--drain-timeout", String(Self.drainTimeout),
        ])
        try #require(await child.waitForLines(2_000, timeout: 30) >= 2_000, "the child printed too few ids: \(child.standardError)")
        // Printed before the signal: their send returned before it, so the drain persists them.
        let beforeSignal = child.outputLines.filter { !$0.isEmpty }
        let signalled = Date()
        kill(child.pid, number)
        let status = await child.wait(timeout: Self.drainTimeout + Self.margin)
        let elapsed = Date().timeIntervalSince(signalled)
        if status == nil { child.kill() }
        #expect(status == number, "ended by signal \(number): status \(String(describing: status)), \(child.standardError.suffix(300))")
        #expect(elapsed <= Self.drainTimeout + Self.margin, "ended \(elapsed) s after the signal")
        let printed = child.outputLines.filter { !$0.isEmpty }

        let (stored, inJournal) = try Self.storedIDs(storePath)
        let notDrained = beforeSignal.filter { !stored.contains($0) }
        #expect(notDrained.isEmpty, "\(notDrained.count) of \(beforeSignal.count) ids printed before the signal are not in the store, e.g. \(Array(notDrained.prefix(3)))")
        let missing = printed.filter { !stored.contains($0) && !inJournal.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(printed.count) printed ids are lost, e.g. \(Array(missing.prefix(3)))")
        #expect(Set(printed).count == printed.count, "ids are unique")
    }

    /// The ids in the store (read-only), split into those in the SQLite file and those still
    /// only in the journal beside it.
    private static func storedIDs(_ path: String) throws -> (stored: Set<String>, inJournal: Set<String>) {
        let store = try EventStore(path: path, limits: .unlimited, readOnly: true)
        defer { store.close() }
        var stored = Set<String>()
        var inJournal = Set<String>()
        var offset = 0
        while true {
            let page = try store.query(StoreQuery(limit: 50_000, offset: offset))
            if page.isEmpty { break }
            for row in page {
                let id = row.event.id.uuidString.lowercased()
                if row.isInJournal { inJournal.insert(id) } else { stored.insert(id) }
            }
            offset += page.count
        }
        return (stored, inJournal)
    }
}
