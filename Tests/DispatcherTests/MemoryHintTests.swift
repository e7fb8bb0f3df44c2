@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A sender asks memory whether it holds events only while it may: the Dispatcher notes that
/// before anything is buffered and forgets it once a move left memory empty. Events that wait
/// in memory still reach the journal before those sent after them, and once memory is empty the
/// sends go straight to the journal again.
@Suite("Dispatcher: whether memory may hold events")
struct MemoryHintTests {
    private func event(_ index: Int) -> TrackedEvent {
        TrackedEvent(category: "Checkout", name: "pay", action: "tap", userData: ["i": .int(index)])
    }

    private func mayHold(_ dispatcher: Dispatcher) -> Bool { dispatcher.state.withLock { $0.memoryMayHoldEvents } }

    @Test func theNoteIsSetWhileMemoryHoldsEventsAndClearedOnceTheyMoved() async throws {
        let directory = try TemporaryDirectory(prefix: "memory-hint")
        defer { directory.remove() }
        var configuration = DispatcherConfiguration(storePath: directory.file("store.sqlite").path)
        configuration.opensStorageInBackground = true
        let semaphore = DispatchSemaphore(value: 0)
        let dispatcher = try Dispatcher.$beforeBackgroundOpen.withValue({ _ = semaphore.wait(timeout: .now() + 20) }) {
            try Dispatcher(configuration: configuration)
        }
        #expect(!mayHold(dispatcher), "nothing buffered yet")
        let early = (0..<20).map(event)
        #expect(early.compactMap(dispatcher.send).allSatisfy { $0.form == "memory" })
        #expect(mayHold(dispatcher), "set before the first event was buffered")
        semaphore.signal()
        #expect(await dispatcher.storageReady() == .available)
        #expect(await eventually(timeout: 10) { !mayHold(dispatcher) }, "cleared once memory is empty")
        #expect(dispatcher.state.withLock { $0.buffersUnderway } == 0)
        let late = (20..<40).map(event)
        #expect(late.compactMap(dispatcher.send).allSatisfy { $0.form == "journal" })
        #expect(await dispatcher.drain(timeout: 30).persisted)
        let stored = try dispatcher.records().map(\.id)
        await dispatcher.close()
        // Ids are time-ordered: the store's order by id is the order sent, memory's events first.
        #expect(stored.sorted { EventID.text($0) < EventID.text($1) } == (early + late).map(\.id))
    }
}
