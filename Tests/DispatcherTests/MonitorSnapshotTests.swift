import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `demo monitor` exports beside a writer, in real child processes: the export is paused
/// (SIGSTOP) after its first page while another `demo` process writes to the store, then resumed
/// (SIGCONT). An export is one state of the store, each id exactly once, and a healthy store is
/// never called corrupt.
@Suite("demo monitor beside a writer: one consistent snapshot", .serialized, .runsAlone)
struct MonitorSnapshotTests {
    /// The ids (first CSV column) of an export's rows, header dropped.
    private static func ids(_ lines: [String]) -> [String] {
        lines.dropFirst().map { String($0.prefix { $0 != "," }) }
    }

    /// Starts `monitor --format csv` on `store`, waits for its first page, and stops it there.
    private static func pausedExport(of store: String) async throws -> DemoProcess {
        let monitor = try DemoProcess(["monitor", "--store", store, "--format", "csv"])
        // The header and more than one row: the export has begun and holds its reading.
        let seen = await monitor.waitForLines(100, timeout: 60)
        try #require(seen >= 100, "the monitor printed \(seen) lines: \(monitor.standardError)")
        kill(monitor.pid, SIGSTOP)
        return monitor
    }

    @Test("An export started beside a live writer lists each id once, and every id sent before it began")
    func exportBesideLiveWriterHasEachIDOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "monitor-snapshot-live")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        // Bounded: the writer ends by itself, while the export waits stopped.
        let writer = try DemoProcess(["generate", "--count", "150000", "--store", store, "--print-ids"])
        let started = await writer.waitForLines(25_000, timeout: 60)
        try #require(started >= 25_000, "generate printed \(started) ids: \(writer.standardError)")
        let sentBefore = writer.outputLines.filter { !$0.isEmpty }
        let monitor = try await Self.pausedExport(of: store)
        // The writer moves what was only in its journal into the store and adds more, meanwhile.
        let writerStatus = await writer.wait(timeout: 120)
        kill(monitor.pid, SIGCONT)
        let status = await monitor.wait(timeout: 120)
        if status == nil { monitor.kill() }
        #expect(writerStatus == 0, "generate: \(writer.standardError)")
        #expect(status == 0, "monitor failed: \(monitor.standardError)")
        #expect(!monitor.standardError.contains("corrupt"), "\(monitor.standardError)")

        let listed = Self.ids(monitor.outputLines)
        let unique = Set(listed)
        #expect(listed.count == unique.count, "\(listed.count - unique.count) of \(listed.count) rows repeat an id")
        let missing = sentBefore.filter { !unique.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(sentBefore.count) ids sent before the export began are not listed")
    }

    @Test("After a crash, a writer replaying the journal during an export: the export is the state it began with, each id once")
    func exportDuringJournalReplayIsOneState() async throws {
        let directory = try TemporaryDirectory(prefix: "monitor-snapshot-replay")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let crashed = try DemoProcess(["generate", "--count", "10000000", "--store", store, "--print-ids"])
        _ = await crashed.waitForLines(30_000, timeout: 60)
        crashed.kill()
        // Durable once `send` returned: every printed id is in the store or in its journal.
        let printed = Set(crashed.outputLines.filter { !$0.isEmpty })
        try #require(printed.count >= 30_000, "the child printed \(printed.count) ids: \(crashed.standardError)")

        let monitor = try await Self.pausedExport(of: store)
        // A writable open moves the journal's events into the store; then it adds its own.
        let replay = try DemoProcess(["generate", "--count", "2000", "--store", store, "--print-ids"])
        let replayStatus = await replay.wait(timeout: 120)
        kill(monitor.pid, SIGCONT)
        let status = await monitor.wait(timeout: 120)
        if status == nil { monitor.kill() }
        #expect(replayStatus == 0, "replaying generate: \(replay.standardError)")
        #expect(status == 0, "monitor failed: \(monitor.standardError)")

        let listed = Self.ids(monitor.outputLines)
        let unique = Set(listed)
        #expect(listed.count == unique.count, "\(listed.count - unique.count) of \(listed.count) rows repeat an id")
        let missing = printed.subtracting(unique)
        #expect(missing.isEmpty, "\(missing.count) of \(printed.count) durable ids are not listed")
        let later = unique.intersection(replay.outputLines.filter { !$0.isEmpty })
        #expect(later.isEmpty, "\(later.count) ids sent after the export began are listed")
    }

    @Test("A writer opening a closed store during an export: never a false 'corrupt', never a mixed export")
    func writerOpeningDuringExportIsNotCorruption() async throws {
        let directory = try TemporaryDirectory(prefix: "monitor-snapshot-reopen")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let first = try DemoProcess(["generate", "--count", "30000", "--store", store, "--print-ids"])
        #expect(await first.wait(timeout: 120) == 0, "generate: \(first.standardError)")
        let before = Set(first.outputLines.filter { !$0.isEmpty })
        try #require(before.count == 30_000)
        try #require(!FileManager.default.fileExists(atPath: store + "-wal"), "the first writer left its log")

        let monitor = try await Self.pausedExport(of: store)
        // A second writer opens the store (making its log), adds events, checkpoints and closes.
        let second = try DemoProcess(["generate", "--count", "30000", "--store", store])
        let secondStatus = await second.wait(timeout: 120)
        kill(monitor.pid, SIGCONT)
        let status = await monitor.wait(timeout: 120)
        if status == nil { monitor.kill() }
        #expect(secondStatus == 0, "second generate: \(second.standardError)")
        print("monitor while a writer reopened the store: exit \(status.map(String.init) ?? "none"), \(monitor.outputLines.count) lines")
        #expect(!monitor.standardError.contains("corrupt"), "a healthy store was called corrupt: \(monitor.standardError)")
        if status == 0 {
            // A complete export is the state it began with: the first writer's events, each once.
            let listed = Self.ids(monitor.outputLines)
            #expect(listed.count == before.count && Set(listed) == before,
                    "\(listed.count) rows, \(Set(listed).count) ids, \(Set(listed).subtracting(before).count) not of the first state")
        } else {
            // Part of it was printed already: it says so, and that the store is fine.
            #expect(status == 1)
            #expect(monitor.standardError.contains("changed while it was read"), "\(monitor.standardError)")
        }
        // Read again now, the export is the whole store.
        let again = try DemoProcess(["monitor", "--store", store, "--format", "csv"])
        #expect(await again.wait(timeout: 120) == 0, "\(again.standardError)")
        let all = Self.ids(again.outputLines)
        #expect(all.count == 60_000 && Set(all).count == 60_000 && before.isSubset(of: Set(all)))
    }
}
