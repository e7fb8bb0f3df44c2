@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The rule for a suspended iOS app (killed with `0xdead10cc` when it holds a file lock in an
/// App Group container): between `releaseStorageForSuspension` and
/// `resumeStorageAfterSuspension` the Dispatcher holds no file lock and no transaction, and
/// loses nothing sent meanwhile.
@Suite("Reliability: storage released for suspension", .serialized, .runsAlone)
struct StorageSuspensionTests {
    private static func send(_ count: Int, through dispatcher: Dispatcher, from start: Int = 0) -> [UUID] {
        (start..<start + count).compactMap { index in
            dispatcher.send(TrackedEvent(category: Probe.category, name: "tap", action: "open", userData: ["index": .int(index)]))?.eventID
        }
    }

    @Test("Released: no lock on any store file; events sent meanwhile are persisted and delivered once after resuming")
    func releasesEveryLock() async throws {
        let directory = try TemporaryDirectory(prefix: "suspension-locks")
        let storePath = directory.file("group/events.sqlite").path
        let outbox = directory.file("outbox.ndjson")
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, destination: NDJSONFileDestination(fileURL: outbox), storageRetryInterval: 0.1))
        let before = Self.send(30, through: dispatcher)
        #expect(await dispatcher.drain(timeout: 10).persisted)
        #expect(!(try HeldFileLocks.on(HeldFileLocks.storeFiles(storePath))).isEmpty, "the check sees no lock even while open")

        #expect(await dispatcher.releaseStorageForSuspension(timeout: 5))
        #expect(try HeldFileLocks.on(HeldFileLocks.storeFiles(storePath)) == [])
        #expect(dispatcher.storage == .unavailable(reason: Dispatcher.releasedReason))
        let during = Self.send(25, through: dispatcher, from: 30)
        #expect(during.count == 25)
        // No retry timer takes the lock back behind the app's back.
        try await Task.sleep(nanoseconds: 400_000_000)
        #expect(try HeldFileLocks.on(HeldFileLocks.storeFiles(storePath)) == [])

        #expect(await dispatcher.resumeStorageAfterSuspension() == .available)
        let after = Self.send(5, through: dispatcher, from: 55)
        #expect(await dispatcher.flushUntilSettled(timeout: 20))
        let delivered = try NDJSONOutbox.deliveries(in: outbox)
        let sent = (before + during + after).map { $0.uuidString.lowercased() }
        #expect(Set(delivered.keys) == Set(sent), "missing: \(Set(sent).subtracting(delivered.keys).count)")
        #expect(delivered.values.allSatisfy { $0 == 1 })
        await dispatcher.close()
    }

    @Test("A second writer that took the store meanwhile is waited out, and nothing is lost")
    func secondWriterIsWaitedOut() async throws {
        let directory = try TemporaryDirectory(prefix: "suspension-second-writer")
        let storePath = directory.file("events.sqlite").path
        let first = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath, storageRetryInterval: 0.1))
        let early = Self.send(10, through: first)
        #expect(await first.drain(timeout: 10).persisted)
        await first.releaseStorageForSuspension()

        // An app extension opens the store while the app is suspended.
        let extensionWriter = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        let fromExtension = Self.send(7, through: extensionWriter, from: 100)
        let whileSuspended = Self.send(12, through: first, from: 10)
        guard case .unavailable(let reason) = await first.resumeStorageAfterSuspension() else {
            Issue.record("two writers on one store")
            return
        }
        #expect(reason.contains("in use"), "\(reason)")
        let whileRefused = Self.send(3, through: first, from: 22)
        #expect(await extensionWriter.drain(timeout: 10).persisted)
        await extensionWriter.close()

        let deadline = Date().addingTimeInterval(10)
        while first.storage != .available, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(first.storage == .available)
        #expect(await first.drain(timeout: 10).persisted)
        let stored = try first.storedIDs()
        #expect(stored.count == Set(stored).count)
        #expect(Set(stored) == Set(early + fromExtension + whileSuspended + whileRefused))
        await first.close()
    }

    @Test("Release while nothing is open, twice, or after close does nothing harmful")
    func releaseIsIdempotent() async throws {
        let directory = try TemporaryDirectory(prefix: "suspension-idempotent")
        let storePath = directory.file("events.sqlite").path
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        #expect(await dispatcher.releaseStorageForSuspension())
        #expect(await dispatcher.releaseStorageForSuspension())
        #expect(await dispatcher.resumeStorageAfterSuspension() == .available)
        #expect(await dispatcher.resumeStorageAfterSuspension() == .available)
        await dispatcher.close()
        #expect(await dispatcher.releaseStorageForSuspension())
    }
}
