@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// A journal segment changed under a running process (cut short with `truncate`, made immutable
/// with `chattr +i`): the process, sending now and then as apps do, survives, says so, counts
/// what was lost and moves to a new segment. The child is a real `demo generate --interval`;
/// the store's write lock is held here while the file changes, so its events wait in the journal.
@Suite("Reliability: journal segments changed while running", .serialized, .runsAlone)
struct JournalFileChangeTests {
    static let total = 60

    /// What the run printed and how it ended.
    struct Outcome {
        var status: Int32?
        var errors: String
    }

    /// Runs a paced `demo generate` of ``total`` events, applies `change` to its segment files
    /// about a second in (the store locked meanwhile), and waits for it to end.
    static func run(_ label: String, change: @Sendable ([String]) throws -> Void) async throws -> (Outcome, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "journal-\(label)")
        let storePath = directory.file("s.sqlite").path
        let create = try DemoProcess(["generate", "--count", "0", "--store", storePath])
        #expect(await create.wait(timeout: 120) == 0, "\(create.standardError)")
        let blocker = try SQLiteDatabase(path: storePath)
        try blocker.execute("BEGIN IMMEDIATE")
        let child = try DemoProcess(["generate", "--count", String(total), "--interval", "0.05", "--store", storePath])
        let journal = storePath + ".journal"
        let deadline = Date().addingTimeInterval(60)
        var segments: [String] = []
        while segments.isEmpty, Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
            segments = ((try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? [])
                .filter { $0.hasSuffix(".journal") }.map { journal + "/" + $0 }
        }
        try await Task.sleep(nanoseconds: 1_000_000_000)
        try change(segments)
        try await Task.sleep(nanoseconds: 500_000_000)
        try blocker.execute("ROLLBACK")
        blocker.close()
        let status = await child.wait(timeout: 120)
        return (Outcome(status: status, errors: child.standardError), directory)
    }

    @Test("truncate -s 0 on the active segment: the sender survives, the records past the cut are counted lost, the rest persisted intact, exit 1")
    func truncatedSegment() async throws {
        let (outcome, directory) = try await Self.run("truncated") { segments in
            for segment in segments { #expect(truncate(segment, 0) == 0) }
        }
        defer { directory.remove() }
        let tail = String(outcome.errors.suffix(1_200))
        #expect(outcome.status == 1, "\(tail)")
        #expect(outcome.errors.contains("was cut to 0 bytes while in use"), "\(tail)")
        let lost = JournalDamageTests.count("records cut from a segment while running", in: outcome.errors) ?? 0
        let summary = outcome.errors.components(separatedBy: "generate: sent").last ?? ""
        let persisted = summary.range(of: "persisted ").flatMap { Int(summary[$0.upperBound...].prefix { $0.isNumber }) } ?? -1
        #expect(lost > 0, "\(tail)")
        // Records, not events: one lost may be the segment's shared-context record.
        #expect(lost + persisted == Self.total || lost + persisted == Self.total + 1, "\(tail)")
        // What was stored was read before the cut or below it: never the zeros past it.
        let store = try EventStore(path: directory.file("s.sqlite").path, readOnly: true)
        defer { store.close() }
        let stored = try store.query(StoreQuery(limit: 1_000))
        #expect(stored.count == persisted)
        let zero = UUID(uuidString: "00000000-0000-0000-0000-000000000000")
        #expect(stored.allSatisfy { !$0.event.category.isEmpty && !$0.event.name.isEmpty && $0.id != zero },
                "\(stored.map { "\($0.id) \($0.event.category) \($0.event.name)" })")
    }

    /// Whether `chattr +i` works here (root, and a file system with the flag), tried on a file.
    static let canMakeImmutable: Bool = {
        guard getuid() == 0, let probe = try? TemporaryDirectory(prefix: "chattr-probe") else { return false }
        defer {
            _ = try? chattr("-i", probe.file("f").path)
            probe.remove()
        }
        guard FileManager.default.createFile(atPath: probe.file("f").path, contents: Data([1])) else { return false }
        return (try? chattr("+i", probe.file("f").path)) == 0
    }()

    @discardableResult
    static func chattr(_ flag: String, _ path: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("chattr +i on the active segment: the sender survives, moves to a new segment and loses nothing",
          .enabled(if: JournalFileChangeTests.canMakeImmutable, "needs root and a file system with the immutable flag"))
    func immutableSegment() async throws {
        let (outcome, directory) = try await Self.run("immutable") { segments in
            for segment in segments {
                let status = try Self.chattr("+i", segment)
                #expect(status == 0)
            }
            // Written back: the pages are clean, so the next store into them asks the file system.
            sync()
        }
        defer {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path + "/s.sqlite.journal")) ?? [] {
                _ = try? Self.chattr("-i", directory.path + "/s.sqlite.journal/" + name)
            }
            directory.remove()
        }
        let tail = String(outcome.errors.suffix(1_200))
        #expect(outcome.status == 0, "\(tail)")
        #expect(outcome.errors.contains("was made immutable or append-only while in use"), "\(tail)")
        #expect(outcome.errors.contains("sent \(Self.total), persisted \(Self.total),"), "\(tail)")
    }
}
