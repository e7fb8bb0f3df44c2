@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A real full disk (a small tmpfs): every refused event is counted with its reason, memory
/// takes what the journal can't, nothing spins, and storing resumes once there is room again.
@Suite("Integrity: a full disk", .serialized, .enabled(if: SmallFileSystem.isAvailable, "needs root to mount a small tmpfs"), .runsAlone)
struct FullDiskTests {
    /// Reads `key N` out of a summary line.
    private static func figure(_ key: String, in line: String) -> Int? {
        guard let range = line.range(of: key + " ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("demo generate on a 3 MiB disk: refusals counted with the reason, exit 1, no spinning; every printed id is stored once the disk grows, but for those the summary says were lost in memory")
    func generateOnAFullDisk() async throws {
        let disk = try SmallFileSystem(bytes: 3 << 20)
        defer { disk.unmount() }
        let storePath = disk.file("store.sqlite").path
        let child = try DemoProcess(["generate", "--count", "200000", "--store", storePath, "--print-ids", "--timeout", "3"])
        let status = await child.wait(timeout: 180)
        let lines = child.standardError.split(separator: "\n").map(String.init)
        let summary = try #require(lines.last { $0.hasPrefix("generate: sent") }, "no summary: \(child.standardError.suffix(500))")
        #expect(status == 1, "a run that refused events must fail: \(summary)")
        let sent = try #require(Self.figure("sent", in: summary))
        let persisted = try #require(Self.figure("persisted", in: summary))
        let refused = try #require(Self.figure("refused", in: summary))
        let stranded = try #require(Self.figure("stranded", in: summary))
        #expect(sent == 200_000 && refused > 0 && persisted + refused + stranded == sent, "\(summary)")
        #expect(summary.contains("no room in the journal or in memory"), "the reason is missing: \(summary)")
        // No busy loop: the run waited for room without burning the kernel's time.
        let system = try #require(summary.range(of: "+ ").map { Double(summary[$0.upperBound...].prefix { $0.isNumber || $0 == "." }) } ?? nil)
        #expect(system < 5, "the full disk cost \(system) s of system CPU: \(summary)")
        let printed = Set(child.outputLines.filter { !$0.isEmpty })
        #expect(printed.count == sent - refused, "printed \(printed.count) ids for \(sent - refused) accepted")
        let lostInMemory = summary.range(of: "stranded: ").flatMap { range -> Int? in
            let tail = summary[range.upperBound...]
            guard let memory = tail.range(of: " in memory") else { return nil }
            return Int(tail[..<memory.lowerBound].split(whereSeparator: { !$0.isNumber }).last ?? "")
        } ?? 0

        // Room again: a new run replays the journal, and the store holds every printed id that
        // the summary did not report lost in memory.
        try disk.grow(to: 256 << 20)
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        #expect(await dispatcher.drain(timeout: 60).persisted)
        let stored = Set(try #require(dispatcher.store).query(StoreQuery(limit: 1_000_000)).map { $0.event.id.uuidString.lowercased() })
        await dispatcher.close()
        let missing = printed.subtracting(stored).count
        #expect(missing == lostInMemory, "\(missing) printed ids are missing; the summary reported \(lostInMemory) lost in memory: \(summary)")
        #expect(stored.count >= persisted)
    }

    @Test("In process: memory takes what the full journal can't, refusals are counted by reason, and storing resumes once the disk grows")
    func recoversWhenSpaceReturns() async throws {
        let disk = try SmallFileSystem(bytes: 2 << 20)
        defer { disk.unmount() }
        let log = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: disk.file("store.sqlite").path, batch: BatchConfiguration(overflowQueueSize: 2_000), onDiagnostic: log.handler))
        var accepted: [UUID] = []
        var inMemory = 0
        var refused = 0
        for index in 0..<40_000 {
            let event = TrackedEvent(category: "Probe", name: "view", action: "open",
                                     userData: ["index": .int(index), "pad": .string(String(repeating: "p", count: 100))])
            switch dispatcher.send(event)?.form {
            case "journal"?: accepted.append(event.id)
            case "memory"?:
                accepted.append(event.id)
                inMemory += 1
            default: refused += 1
            }
        }
        let full = dispatcher.counters
        #expect(inMemory > 0, "memory never took an event: \(full)")
        #expect(refused > 0 && full.refused == refused && full.refusals[.noRoom] == refused, "\(full)")
        #expect(full.sent == 40_000 && full.buffered > 0, "\(full)")
        #expect(log.contains("they wait in memory") && log.contains("no room in the journal or in memory"), "\(log.messages)")

        try disk.grow(to: 256 << 20)
        // The overflow moves to the journal by itself, then new events go straight there.
        let deadline = Date().addingTimeInterval(30)
        while dispatcher.counters.buffered > 0, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(dispatcher.counters.buffered == 0, "still in memory: \(dispatcher.counters)")
        let after = TrackedEvent(category: "Probe", name: "view", action: "close")
        #expect(dispatcher.send(after)?.form == "journal")
        accepted.append(after.id)
        #expect(await dispatcher.drain(timeout: 60).persisted)
        let stored = Set(try #require(dispatcher.store).query(StoreQuery(limit: 100_000)).map(\.event.id))
        let counters = dispatcher.counters
        await dispatcher.close()
        #expect(Set(accepted).isSubset(of: stored), "\(Set(accepted).subtracting(stored).count) accepted events are not stored: \(counters)")
        #expect(counters.persisted == accepted.count && counters.refused == refused, "\(counters)")
        #expect(log.contains("takes events again"), "\(log.messages)")
    }
}
