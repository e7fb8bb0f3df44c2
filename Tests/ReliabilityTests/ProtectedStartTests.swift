@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A start before the first unlock (iOS: protected files answer `EPERM` until then), played on
/// Linux through the `ProtectedData` seam and a store folder that is a regular file until "the
/// unlock": the Dispatcher starts without throwing, keeps every event, and opens by itself.
@Suite("Reliability: start before the first unlock", .runsAlone)
struct ProtectedStartTests {
    private static func send(_ count: Int, through dispatcher: Dispatcher, from start: Int = 0) -> [UUID] {
        (start..<start + count).compactMap { index in
            dispatcher.send(TrackedEvent(category: Probe.category, name: "view", action: "open", userData: ["index": .int(index)]))?.eventID
        }
    }

    /// A store whose folder is, for now, a regular file: opening fails as a locked device's would.
    private static func lockedStore(_ directory: TemporaryDirectory) throws -> (store: String, blocker: URL) {
        let blocker = try directory.write("protected until the first unlock", to: "data")
        return (directory.file("data/events.sqlite").path, blocker)
    }

    @Test("Unopenable at start for want of protected data: no throw, events wait, retryOpeningStorage opens at once, each delivered once")
    func opensWhenUnlocked() async throws {
        let directory = try TemporaryDirectory(prefix: "protected-start")
        let (storePath, blocker) = try Self.lockedStore(directory)
        let outbox = directory.file("outbox.ndjson")
        let log = DiagnosticLog()
        let dispatcher = try ProtectedData.$availableOverride.withValue(false) {
            try Dispatcher(configuration: DispatcherConfiguration(
                storePath: storePath, destination: NDJSONFileDestination(fileURL: outbox),
                storageRetryInterval: 3_600, onDiagnostic: log.handler))
        }
        #expect(dispatcher.isWaitingForProtectedData)
        guard case .unavailable = dispatcher.storage else {
            Issue.record("the store opened through a regular file: \(dispatcher.storage)")
            return
        }
        let early = Self.send(50, through: dispatcher)
        #expect(early.count == 50, "events sent before the unlock were refused")

        // The unlock: the folder becomes usable; the retry timer (an hour) is not waited for.
        try FileManager.default.removeItem(at: blocker)
        #expect(await dispatcher.retryOpeningStorage() == .available)
        #expect(!dispatcher.isWaitingForProtectedData)
        let late = Self.send(10, through: dispatcher, from: 50)
        #expect(await dispatcher.flushUntilSettled(timeout: 20))
        let delivered = try NDJSONOutbox.deliveries(in: outbox)
        let sent = (early + late).map { $0.uuidString.lowercased() }
        #expect(Set(delivered.keys) == Set(sent), "missing: \(Set(sent).subtracting(delivered.keys).count)")
        #expect(delivered.values.allSatisfy { $0 == 1 }, "delivered more than once: \(delivered.filter { $0.value > 1 })")
        #expect(log.contains("available again"), "\(log.messages)")
        await dispatcher.close()
    }

    @Test("Without the protected-data seam the same failure is an ordinary unavailable store")
    func ordinaryFailureIsNotProtectedData() async throws {
        let directory = try TemporaryDirectory(prefix: "protected-start-plain")
        let (storePath, _) = try Self.lockedStore(directory)
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath, storageRetryInterval: 3_600))
        #expect(!dispatcher.isWaitingForProtectedData)
        await dispatcher.close()
    }

    @Test("The retry timer alone opens the store once protected data is available")
    func timerOpens() async throws {
        let directory = try TemporaryDirectory(prefix: "protected-start-timer")
        let (storePath, blocker) = try Self.lockedStore(directory)
        let dispatcher = try ProtectedData.$availableOverride.withValue(false) {
            try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath, storageRetryInterval: 0.1))
        }
        let ids = Self.send(20, through: dispatcher)
        try FileManager.default.removeItem(at: blocker)
        let deadline = Date().addingTimeInterval(10)
        while dispatcher.storage != .available, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(dispatcher.storage == .available)
        #expect(await dispatcher.drain(timeout: 10).persisted)
        #expect(Set(try dispatcher.storedIDs()) == Set(ids))
        await dispatcher.close()
    }
}
