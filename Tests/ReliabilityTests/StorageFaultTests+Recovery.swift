@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Recovery from an unusable folder, also while threads keep sending.
extension StorageFaultTests {
    @Test("An unusable folder: reported, events wait in memory up to the bound, then move to the store once it clears")
    func unusableFolderRecovers() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-blocked")
        defer { directory.remove() }
        // A regular file where the store's folder should be: nothing can be created under it
        // (chmod would not stop root, this does).
        let blocker = directory.file("blocker")
        try Data("not a folder".utf8).write(to: blocker)
        let storePath = blocker.appendingPathComponent("store.sqlite").path
        let log = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, batch: BatchConfiguration(overflowQueueSize: 100), storageRetryInterval: 0.2,
            onDiagnostic: log.handler))

        guard case .unavailable(let reason) = dispatcher.storage else {
            Issue.record("storage should be unavailable, is \(dispatcher.storage)")
            return
        }
        #expect(reason.contains(blocker.path) && reason.contains("not a folder"), "unclear reason: \(reason)")
        #expect(log.contains("cannot be opened"), "no diagnostic: \(log.messages)")
        #expect(dispatcher.store == nil)

        let receipts = Self.sendProbes(150, through: dispatcher)
        #expect(receipts.prefix(100).allSatisfy { $0?.form == "memory" })
        #expect(receipts.suffix(50).allSatisfy { $0 == nil })
        var counters = dispatcher.counters
        #expect(counters.buffered == 100 && counters.refused == 50 && counters.sent == 150, "\(counters)")
        let flushed = await dispatcher.drain(timeout: 1).report
        #expect(flushed.stopReason == .queueError)

        // Still blocked after a few retry intervals: nothing changes, nothing crashes.
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(dispatcher.storage != .available)
        #expect(dispatcher.counters.buffered == 100)

        // Clear the fault: the Dispatcher recovers by itself.
        try FileManager.default.removeItem(at: blocker)
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        let deadline = Date().addingTimeInterval(10)
        while dispatcher.storage != .available, Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(dispatcher.storage == .available)
        #expect(await dispatcher.drain(timeout: 10).persisted)
        counters = dispatcher.counters
        #expect(counters.buffered == 0 && counters.movedFromMemory == 100 && counters.refused == 50, "\(counters)")
        let expected = receipts.prefix(100).compactMap { $0?.eventID }
        #expect(try dispatcher.storedIDs() == expected, "the buffered events are not in the store, in order")
        #expect(log.contains("available again"), "no recovery diagnostic: \(log.messages)")

        // And it works normally afterwards.
        let later = Self.sendProbes(10, through: dispatcher, from: 500)
        #expect(later.allSatisfy { $0?.form == "journal" })
        #expect(await dispatcher.drain(timeout: 10).persisted)
        #expect(try dispatcher.storedIDs().count == 110)
        await dispatcher.close()
    }

    @Test("Recovery while eight threads keep sending: every event whose send returned a receipt reaches the store, none is stranded in memory")
    func recoveryWhileSending() async throws {
        // The race this looks for lives at the instant of recovery: try it a dozen times.
        for round in 0..<12 {
            let directory = try TemporaryDirectory(prefix: "reliability-recovery-\(round)")
            defer { directory.remove() }
            let blocker = directory.file("blocker")
            try Data("not a folder".utf8).write(to: blocker)
            let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
                storePath: blocker.appendingPathComponent("store.sqlite").path,
                batch: BatchConfiguration(overflowQueueSize: 200_000), storageRetryInterval: 0.05))
            #expect(dispatcher.storage != .available)
            let stop = StopFlag()
            let clearing = Task {
                try? await Task.sleep(nanoseconds: 100_000_000)
                try? FileManager.default.removeItem(at: blocker)
                try? FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
                let deadline = Date().addingTimeInterval(10)
                while dispatcher.storage != .available, Date() < deadline { try? await Task.sleep(nanoseconds: 5_000_000) }
                try? await Task.sleep(nanoseconds: 50_000_000)
                stop.raise()
            }
            let accepted = await SenderThreads.run(8) { thread in
                var ids: [UUID] = []
                var index = 0
                while !stop.isRaised, index < 10_000 {
                    let event = TrackedEvent(category: Probe.category, name: "tap", action: "other",
                                             userData: ["thread": .int(thread), "index": .int(index)])
                    if let receipt = dispatcher.send(event) { ids.append(receipt.eventID) }
                    index += 1
                }
                return ids
            }.flatMap { $0 }
            await clearing.value
            #expect(dispatcher.storage == .available, "round \(round): never recovered")
            #expect(await dispatcher.drain(timeout: 15).persisted)
            let counters = dispatcher.counters
            let stored = Set(try dispatcher.storedIDs())
            let missing = accepted.filter { !stored.contains($0) }
            #expect(counters.buffered == 0, "round \(round): \(counters.buffered) events stranded in memory after recovery")
            #expect(missing.isEmpty, "round \(round): \(missing.count) of \(accepted.count) accepted events are not in the store")
            #expect(counters.refused == 0 && counters.sent == accepted.count, "round \(round): \(counters)")
            await dispatcher.close()
        }
    }
}
