@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Files in the journal folder that are not this run's segments (an empty file a crash left
/// while creating one, a damaged file, a file that appears while running) never stop the
/// journal from taking events.
@Suite("Integrity: leftover journal files", .serialized, .runsAlone)
struct LeftoverSegmentTests {
    private static func journalFolder(_ storePath: String) -> String { storePath + ".journal" }

    private static func segmentName(_ number: UInt64) -> String {
        let digits = String(number)
        return "segment-" + String(repeating: "0", count: 20 - digits.count) + digits + ".journal"
    }

    private static func sendAndDrain(_ count: Int, to storePath: String, batch: BatchConfiguration = BatchConfiguration()) async throws -> DispatcherCounters {
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath, batch: batch))
        for index in 0..<count {
            _ = dispatcher.send(TrackedEvent(category: "Probe", name: "view", action: "open", userData: ["index": .int(index)]))
        }
        _ = await dispatcher.drain(timeout: 60)
        let counters = dispatcher.counters
        await dispatcher.close()
        return counters
    }

    @Test("An empty file named like the first segment is removed and every event is stored")
    func emptyLeftoverSegment() async throws {
        let directory = try TemporaryDirectory(prefix: "leftover-empty")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        try FileManager.default.createDirectory(atPath: Self.journalFolder(storePath), withIntermediateDirectories: true)
        let leftover = Self.journalFolder(storePath) + "/" + Self.segmentName(1)
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data()))
        let counters = try await Self.sendAndDrain(1_000, to: storePath)
        #expect(counters.refused == 0 && counters.persisted == 1_000 && counters.store.pending == 1_000, "\(counters)")
        #expect(!FileManager.default.fileExists(atPath: leftover), "the empty leftover is still there")
    }

    @Test("A damaged file named like a segment is kept as .unreadable and its number is not reused")
    func damagedLeftoverSegment() async throws {
        let directory = try TemporaryDirectory(prefix: "leftover-damaged")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        try FileManager.default.createDirectory(atPath: Self.journalFolder(storePath), withIntermediateDirectories: true)
        let leftover = Self.journalFolder(storePath) + "/" + Self.segmentName(7)
        let garbage = Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: leftover))
        let counters = try await Self.sendAndDrain(1_000, to: storePath)
        #expect(counters.refused == 0 && counters.persisted == 1_000, "\(counters)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: leftover + ".unreadable")) == garbage, "the damaged file was not kept aside unchanged")
    }

    @Test("Segment numbers taken by files that appear while running are skipped")
    func collisionWhileRunning() async throws {
        let directory = try TemporaryDirectory(prefix: "leftover-collision")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        // A small budget means small segments (64 KiB), so the run rotates through many of them;
        // the store keeps the newest 512 KiB and evicts the rest, counted.
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, batch: BatchConfiguration(maxQueueBytes: 512 << 10)))
        var accepted = 0
        for round in 0..<10 {
            // Occupy the next numbers, beyond every file there now.
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.journalFolder(storePath))
            let highest = names.compactMap { name -> UInt64? in
                guard name.hasPrefix("segment-"), name.hasSuffix(".journal") else { return nil }
                return UInt64(name.dropFirst(8).dropLast(8))
            }.max() ?? 0
            for number in (highest + 1)...(highest + 3) {
                _ = FileManager.default.createFile(atPath: Self.journalFolder(storePath) + "/" + Self.segmentName(number), contents: Data())
            }
            for index in 0..<1_000 {
                let event = TrackedEvent(category: "Probe", name: "view", action: "open", userData: ["round": .int(round), "index": .int(index), "pad": .string(String(repeating: "x", count: 200))])
                if dispatcher.send(event) != nil { accepted += 1 }
            }
        }
        #expect(await dispatcher.drain(timeout: 60).persisted)
        let counters = dispatcher.counters
        await dispatcher.close()
        #expect(accepted == 10_000 && counters.refused == 0, "\(counters)")
        #expect(counters.persisted == 10_000 && counters.store.pending + counters.evicted == 10_000, "\(counters)")
    }

    @Test("demo generate --print-ids after a leftover empty segment prints every id and says so")
    func generateAfterLeftover() async throws {
        let directory = try TemporaryDirectory(prefix: "leftover-cli")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        try FileManager.default.createDirectory(atPath: Self.journalFolder(storePath), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: Self.journalFolder(storePath) + "/" + Self.segmentName(1), contents: Data()))
        let child = try DemoProcess(["generate", "--count", "1000", "--store", storePath, "--print-ids"])
        let status = await child.wait(timeout: 120)
        #expect(status == 0, "\(child.standardError)")
        #expect(child.outputLines.filter { !$0.isEmpty }.count == 1_000)
        let summary = child.standardError.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.contains("sent 1000, persisted 1000, refused 0, evicted 0"), "\(summary)")
    }
}
