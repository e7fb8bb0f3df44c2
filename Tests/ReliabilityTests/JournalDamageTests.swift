@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// Damage to a journal segment loses only the records it touches: 50,000 events held only in
/// the journal (the store's write lock held by this process), `kill -9`, damage to a middle
/// segment, then a reopen (`demo generate --count 0`) that replays the rest, counts the loss by
/// cause, says so (diagnostic, summary, exit 1) and keeps the damaged file aside.
@Suite("Integrity: damaged journal segments", .serialized, .runsAlone)
struct JournalDamageTests {
    static let total = 50_000

    /// A store and journal left by a killed `demo generate` of ``total`` events that never
    /// reached the store; built once, copied for each kind of damage.
    final class KilledRun: Sendable {
        let directory: TemporaryDirectory
        let ids: Set<String>
        var storePath: String { directory.file("store.sqlite").path }

        init() async throws {
            directory = try TemporaryDirectory(prefix: "journal-damage")
            let storePath = directory.file("store.sqlite").path
            let create = try DemoProcess(["generate", "--count", "0", "--store", storePath])
            #expect(await create.wait(timeout: 120) == 0, "\(create.standardError)")
            // The store's write lock, held here: the child's events stay in its journal.
            let blocker = try SQLiteDatabase(path: storePath)
            try blocker.execute("BEGIN IMMEDIATE")
            let child = try DemoProcess(["generate", "--count", String(JournalDamageTests.total), "--store", storePath, "--print-ids"])
            let printed = await child.waitForLines(JournalDamageTests.total, timeout: 300)
            child.kill()
            try blocker.execute("ROLLBACK")
            blocker.close()
            #expect(printed == JournalDamageTests.total, "\(child.standardError.suffix(600))")
            ids = Set(child.outputLines.filter { !$0.isEmpty })
        }

        /// A copy of the store and journal in a new folder.
        func copy() throws -> TemporaryDirectory {
            let target = try TemporaryDirectory(prefix: "journal-damage-copy")
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                try FileManager.default.copyItem(atPath: directory.path + "/" + name, toPath: target.path + "/" + name)
            }
            return target
        }
    }

    /// The offsets of the format 3 records in a segment file (a marker, then the payload length).
    static func recordOffsets(_ data: Data) -> [Int] {
        var offsets: [Int] = []
        var offset = 16
        data.withUnsafeBytes { bytes in
            while offset + 16 <= bytes.count, bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) == 0x4345_524A {
                offsets.append(offset)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                offset += (16 + length + 7) & ~7
            }
        }
        return offsets
    }

    /// What a reopen found after `damage` was done to the middle segment of a copy of `run`.
    struct Reopened {
        var status: Int32?
        var standardError: String
        var stored: Set<String>
        var files: [String]
        var segmentName: String
        var recordsInSegment: Int
        var summary: String { standardError.split(separator: "\n").last.map(String.init) ?? "" }
    }

    /// Damages the middle segment (or the first with `first`) of a copy of `run`, then reopens it.
    static func reopen(_ run: KilledRun, first: Bool = false, damage: (inout Data, [Int]) -> Void) async throws -> Reopened {
        let copy = try run.copy()
        defer { copy.remove() }
        let storePath = copy.file("store.sqlite").path
        let journal = storePath + ".journal"
        let segments = try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".journal") }.sorted()
        #expect(segments.count >= 2, "\(segments)")
        let name = segments[first ? 0 : segments.count / 2]
        var data = try Data(contentsOf: URL(fileURLWithPath: journal + "/" + name))
        let offsets = recordOffsets(data)
        damage(&data, offsets)
        try data.write(to: URL(fileURLWithPath: journal + "/" + name))
        let child = try DemoProcess(["generate", "--count", "0", "--store", storePath])
        let status = await child.wait(timeout: 180)
        let store = try EventStore(path: storePath, readOnly: true)
        defer { store.close() }
        let stored = Set(try store.query(StoreQuery(limit: 1_000_000)).map { $0.event.id.uuidString.lowercased() })
        return Reopened(status: status, standardError: child.standardError, stored: stored,
                        files: try FileManager.default.contentsOfDirectory(atPath: journal), segmentName: name,
                        recordsInSegment: offsets.count)
    }

    /// The number the summary gives for `cause`, e.g. 3 in "journal lost: 3 damaged records".
    static func count(_ cause: String, in summary: String) -> Int? {
        guard let range = summary.range(of: " " + cause) else { return nil }
        return Int(summary[..<range.lowerBound].split(whereSeparator: { !$0.isNumber }).last ?? "")
    }

    static func expectReported(_ result: Reopened, _ cause: String) {
        #expect(result.status == 1, "\(result.standardError.suffix(800))")
        #expect(result.summary.contains(cause), "\(result.summary)")
        #expect(result.files.contains(result.segmentName + ".damaged"), "\(result.files)")
        #expect(!result.files.contains(result.segmentName), "\(result.files)")
    }

    @Test("Each kind of damage loses only the records it touches, counted, reported, and the file kept aside")
    func everyKindOfDamage() async throws {
        let run = try await KilledRun()
        defer { run.directory.remove() }
        #expect(run.ids.count == Self.total)

        // One flipped byte in the middle of the segment: one record.
        let flip = try await Self.reopen(run) { data, offsets in data[offsets[offsets.count / 2] + 24] ^= 0x5A }
        Self.expectReported(flip, "damaged records")
        #expect(Self.count("damaged records", in: flip.summary) == 1, "\(flip.summary)")
        #expect(flip.stored.count == Self.total - 1 && flip.stored.isSubset(of: run.ids))

        // Sixteen flips through the segment: at most sixteen records, each counted.
        let flips = try await Self.reopen(run) { data, offsets in
            for index in 0..<16 { data[offsets[(index * 2 + 1) * offsets.count / 33] + 40] ^= 0xFF }
        }
        Self.expectReported(flips, "damaged records")
        let lost = Self.count("damaged records", in: flips.summary) ?? -1
        #expect(lost > 0 && lost <= 16 && flips.stored.count + lost == Self.total, "\(flips.summary)")

        // A zeroed length field: that record alone.
        let zeroed = try await Self.reopen(run) { data, offsets in
            let start = offsets[offsets.count / 2] + 4
            data.replaceSubrange(start..<(start + 4), with: [0, 0, 0, 0])
        }
        Self.expectReported(zeroed, "damaged records")
        #expect(zeroed.stored.count == Self.total - 1, "\(zeroed.summary)")

        // A truncation in the middle: the records after the cut are gone, the rest are replayed.
        var cutAway = 0
        let truncated = try await Self.reopen(run) { data, offsets in
            let middle = offsets.count / 2
            cutAway = offsets.count - middle
            data = data.prefix(offsets[middle] + 100)
        }
        Self.expectReported(truncated, "truncated segments")
        #expect(truncated.stored.count == Self.total - cutAway, "\(truncated.summary)")

        // A segment followed by another: its successor's seal says how many records it held, so
        // a cut or damage at its very end is counted exactly.
        var cutFromFirst = 0
        let truncatedFirst = try await Self.reopen(run, first: true) { data, offsets in
            let middle = offsets.count / 2
            cutFromFirst = offsets.count - middle
            data = data.prefix(offsets[middle] + 100)
        }
        Self.expectReported(truncatedFirst, "truncated segments")
        #expect(Self.count("damaged records", in: truncatedFirst.summary) == cutFromFirst, "\(truncatedFirst.summary)")
        #expect(truncatedFirst.stored.count == Self.total - cutFromFirst, "\(truncatedFirst.summary)")
        let lastRecord = try await Self.reopen(run, first: true) { data, offsets in data[offsets[offsets.count - 1] + 24] ^= 0x10 }
        Self.expectReported(lastRecord, "damaged records")
        #expect(Self.count("damaged records", in: lastRecord.summary) == 1 && lastRecord.stored.count == Self.total - 1, "\(lastRecord.summary)")

        // A damaged header: nothing lost, still reported.
        let header = try await Self.reopen(run) { data, _ in data[3] ^= 0x01 }
        Self.expectReported(header, "damaged headers")
        #expect(header.stored == run.ids, "\(header.summary)")
    }
}
