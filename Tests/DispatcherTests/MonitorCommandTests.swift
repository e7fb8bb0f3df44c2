import Foundation
import TestSupport
import Testing

/// `demo monitor` and `demo flush` on what `--store` really holds: a crashed store with events
/// still in its journal, things that are not stores, a read-only store, and large stores.
@Suite("demo monitor and flush: stores as they are", .serialized, .runsAlone)
struct MonitorCommandTests {
    /// Every file under `folder` with its size, bytes and modification time.
    private static func snapshot(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let name = enumerator?.nextObject() as? String {
            let path = folder.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if (attributes[.type] as? FileAttributeType) == .typeDirectory { result[name] = "folder"; continue }
            let data = FileManager.default.contents(atPath: path) ?? Data()
            result[name] = "\(data.count) \(data.hashValue) \(String(describing: attributes[.modificationDate]))"
        }
        return result
    }

    /// Runs `demo` to completion; returns its status, output lines and standard error.
    private static func run(_ arguments: [String], timeout: TimeInterval = 120) async throws -> (status: Int32?, lines: [String], errors: String) {
        let process = try DemoProcess(arguments)
        let status = await process.wait(timeout: timeout)
        return (status, process.outputLines, process.standardError)
    }

    @Test("After a SIGKILL, monitor --status all lists every printed id (journal included) and changes no file")
    func monitorAfterCrashShowsJournalEvents() async throws {
        let directory = try TemporaryDirectory(prefix: "monitor-crash")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let child = try DemoProcess(["generate", "--count", "10000000", "--store", store, "--print-ids"])
        _ = await child.waitForLines(20_000, timeout: 30)
        child.kill()
        let printed = child.outputLines.filter { !$0.isEmpty }
        try #require(!printed.isEmpty, "the child printed no id: \(child.standardError)")

        let before = try Self.snapshot(directory.url)
        let csv = try await Self.run(["monitor", "--store", store, "--status", "all", "--format", "csv"])
        #expect(csv.status == 0, "monitor failed: \(csv.errors)")
        #expect(try Self.snapshot(directory.url) == before, "the monitor created, changed or deleted a file")
        let listed = Set(csv.lines.dropFirst().map { String($0.prefix { $0 != "," }) })
        let missing = printed.filter { !listed.contains($0) }
        let missingCount = missing.count
        #expect(missingCount == 0, "\(missingCount) of \(printed.count) printed ids are not listed, e.g. \(Array(missing.prefix(3)))")

        let json = try await Self.run(["monitor", "--store", store, "--status", "pending", "--format", "json"])
        #expect(json.status == 0, "monitor failed: \(json.errors)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.lines.joined(separator: "\n").utf8)) as? [[String: Any]])
        let pending = Set(records.compactMap { $0["id"] as? String })
        let notPending = printed.filter { !pending.contains($0) }.count
        #expect(notPending == 0, "every printed id is pending")
        #expect(try Self.snapshot(directory.url) == before)
        print("monitor after crash: \(printed.count) ids printed, \(listed.count) listed, \(records.filter { $0["inJournal"] as? Bool == true }.count) in journal, \(missing.count) missing")
    }

    @Test("flush refuses a missing path, a folder, a file that is not a store, and a read-only store: exit 1, nothing touched")
    func flushRefusesWhatIsNotAWritableStore() async throws {
        let directory = try TemporaryDirectory(prefix: "flush-refusals")
        defer { directory.remove() }
        let outbox = directory.file("out.ndjson").path
        func flush(_ store: String) async throws -> (status: Int32?, lines: [String], errors: String) {
            try await Self.run(["flush", "--store", store, "--endpoint", outbox, "--format", "ndjson", "--timeout", "20"])
        }

        let missing = try await flush(directory.file("missing.sqlite").path)
        #expect(missing.status == 1 && missing.errors.contains("no store at"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing.sqlite").path))

        let folder = directory.file("folder.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let folderRun = try await flush(folder.path)
        #expect(folderRun.status == 1 && folderRun.errors.contains("is a folder"), "\(folderRun)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        let notes = directory.file("notes.md")
        try Data("# Shopping\n- milk\n- eggs\n".utf8).write(to: notes)
        let before = try Self.snapshot(directory.url)
        let notesRun = try await flush(notes.path)
        #expect(notesRun.status == 1 && notesRun.errors.contains("is not an event store"), "\(notesRun)")
        #expect(try Self.snapshot(directory.url) == before, "notes.md renamed, changed, or files created beside it")

        // A store of 500 pending events, made read-only: flush exits 1 and they stay pending.
        let storeFolder = directory.file("stores")
        try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: true)
        let store = storeFolder.appendingPathComponent("store.sqlite").path
        let generate = try await Self.run(["generate", "--count", "500", "--store", store])
        #expect(generate.status == 0, "generate failed: \(generate.errors)")
        #expect(chmod(store, 0o444) == 0)
        let readOnlyFile = try await flush(store)
        #expect(readOnlyFile.status == 1 && readOnlyFile.errors.contains("read-only"), "\(readOnlyFile)")
        #expect(chmod(store, 0o600) == 0)
        #expect(chmod(storeFolder.path, 0o555) == 0)
        let readOnlyFolder = try await flush(store)
        #expect(chmod(storeFolder.path, 0o700) == 0)
        #expect(readOnlyFolder.status == 1 && readOnlyFolder.errors.contains("read-only"), "\(readOnlyFolder)")
        #expect(!FileManager.default.fileExists(atPath: outbox), "nothing was delivered")
        let pending = try await Self.run(["monitor", "--store", store, "--status", "pending", "--format", "csv"])
        #expect(pending.lines.count == 501, "the 500 events are still pending: \(pending.lines.count - 1)")
    }

    @Test("monitor refuses a missing path, a folder and a file that is not a store: exit 1 naming the reason")
    func monitorRefusesWhatIsNotAStore() async throws {
        let directory = try TemporaryDirectory(prefix: "monitor-refusals")
        defer { directory.remove() }
        let missing = try await Self.run(["monitor", "--store", directory.file("missing.sqlite").path])
        #expect(missing.status == 1 && missing.errors.contains("no store at"), "\(missing)")
        let folder = try await Self.run(["monitor", "--store", directory.url.path])
        #expect(folder.status == 1 && folder.errors.contains("is a folder"), "\(folder)")
        let notes = directory.file("notes.md")
        try Data("# Notes\nnot a database\n".utf8).write(to: notes)
        let before = try Self.snapshot(directory.url)
        let notesRun = try await Self.run(["monitor", "--store", notes.path, "--format", "json"])
        #expect(notesRun.status == 1 && notesRun.errors.contains("is not an event store"), "\(notesRun)")
        #expect(try Self.snapshot(directory.url) == before)
    }

    @Test("Exports hold every event (2,500, beyond the old 1,000 cut); --limit still limits; a cut table says so")
    func exportsAreComplete() async throws {
        let directory = try TemporaryDirectory(prefix: "monitor-export")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try await Self.run(["generate", "--count", "2500", "--store", store])
        #expect(generate.status == 0, "generate failed: \(generate.errors)")

        let json = try await Self.run(["monitor", "--store", store, "--format", "json"])
        #expect(json.status == 0, "\(json.errors)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.lines.joined(separator: "\n").utf8)) as? [[String: Any]])
        #expect(records.count == 2_500)
        #expect(Set(records.compactMap { $0["id"] as? String }).count == 2_500)

        let csv = try await Self.run(["monitor", "--store", store, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.errors)")
        #expect(csv.lines.count == 2_501, "header and 2,500 rows: \(csv.lines.count)")
        #expect(csv.lines.first?.hasPrefix("id,category") == true)
        #expect(Set(csv.lines.dropFirst().map { $0.prefix(36) }).count == 2_500)

        let limited = try await Self.run(["monitor", "--store", store, "--format", "csv", "--limit", "10"])
        #expect(limited.lines.count == 11)

        let table = try await Self.run(["monitor", "--store", store])
        #expect(table.status == 0, "\(table.errors)")
        #expect(table.lines.last == "showing 1000 of 2500", "last line: \(table.lines.last ?? "none")")
    }
}
