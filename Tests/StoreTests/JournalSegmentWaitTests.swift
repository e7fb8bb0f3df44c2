@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The journal and the ingest writer keep their shared state in `LockedValue` and wait on it:
/// an append that needs the segment the page work is making waits outside the lock, then
/// writes; the consumer's wait still ends on the first record.
@Suite struct JournalSegmentWaitTests {
    private static func event(_ index: Int) -> EncodedEvent {
        EncodedEvent(TrackedEvent(category: "Wait", name: "event", action: "\(index)", userData: ["index": .int(index)]))
    }

    /// Compiles only for `Sendable` types.
    private static func sendable<Value: Sendable>(_: Value.Type) {}

    @Test("EventJournal and IngestWriter are Sendable without @unchecked")
    func sendableTypes() {
        Self.sendable(EventJournal.self)
        Self.sendable(EventJournal.State.self)
        Self.sendable(IngestWriter.self)
        Self.sendable(IngestWriter.State.self)
    }

    /// Opens a journal of 8 KiB segments holding event 0, whose next segment is marked as being made ahead.
    private static func journalAwaitingSegment(in folder: TemporaryDirectory) throws -> EventJournal {
        let journal = try EventJournal(directory: folder.file("journal").path,
                                       configuration: JournalConfiguration(segmentBytes: 8_192, maxSegments: 64))
        try journal.append(event(0))
        journal.state.withLock { $0.preparing = $0.nextNumber }
        return journal
    }

    @Test("An append that needs the segment being made ahead waits for it, then writes everything")
    func appendWaitsForThePreparedSegment() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try Self.journalAwaitingSegment(in: folder)
        let count = 200 // far more than one 8 KiB segment holds
        let failures = LockedValue(0)
        let sender = onNewThread {
            for index in 1..<count {
                do { try journal.append(Self.event(index)) } catch { failures.withLock { $0 += 1 } }
            }
        }
        #expect(sender.wait(timeout: .now() + 0.3) == .timedOut, "the append needing a new segment waits")
        let blockedAt = journal.appendedCount
        #expect(blockedAt > 1 && blockedAt < count)
        // Other callers are not blocked meanwhile: the wait holds no lock.
        #expect(journal.hasRecords(after: .start))
        journal.state.withLockWakingWaiters { $0.preparing = nil }
        #expect(sender.wait(timeout: .now() + 30) == .success)
        #expect(failures.withLock { $0 } == 0)
        let read = journal.read(from: .start, maxRecords: 1_000)
        #expect(read.events.map(\.action) == (0..<count).map { "\($0)" })
        journal.close()
    }

    @Test("A batch append waiting for the segment being made ahead resumes where it stopped")
    func batchAppendResumes() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try Self.journalAwaitingSegment(in: folder)
        let events = (1..<200).map(Self.event)
        let result = LockedValue<(written: Int, error: JournalError?)?>(nil)
        let sender = onNewThread { result.withLock { $0 = journal.append(contentsOf: events) } }
        #expect(sender.wait(timeout: .now() + 0.3) == .timedOut)
        journal.state.withLockWakingWaiters { $0.preparing = nil }
        #expect(sender.wait(timeout: .now() + 30) == .success)
        #expect(result.withLock { $0?.written } == events.count)
        #expect(result.withLock { $0?.error } == nil)
        let read = journal.read(from: .start, maxRecords: 1_000)
        #expect(read.events.map(\.action) == (0..<200).map { "\($0)" })
        journal.close()
    }

    @Test("Closing the journal ends an append's wait for the segment: it throws closed")
    func closeEndsTheWait() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try Self.journalAwaitingSegment(in: folder)
        let refused = LockedValue<JournalError?>(nil)
        let sender = onNewThread {
            for index in 1..<200 {
                do throws(JournalError) { try journal.append(Self.event(index)) } catch {
                    refused.withLock { $0 = error }
                    return
                }
            }
        }
        #expect(sender.wait(timeout: .now() + 0.3) == .timedOut)
        journal.close()
        #expect(sender.wait(timeout: .now() + 30) == .success)
        #expect(refused.withLock { $0 } == .closed)
    }

    @Test("A sleeping consumer is woken by the first record, well before its timeout")
    func consumerWakesOnFirstRecord() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try EventJournal(directory: folder.file("journal").path)
        let outcome = LockedValue<(found: Bool, waited: TimeInterval)?>(nil)
        let consumer = onNewThread {
            let start = Date()
            let found = journal.waitForRecords(after: .start, timeout: 30)
            outcome.withLock { $0 = (found, Date().timeIntervalSince(start)) }
        }
        Thread.sleep(forTimeInterval: 0.1)
        try journal.append(Self.event(0))
        #expect(consumer.wait(timeout: .now() + 30) == .success)
        #expect(outcome.withLock { $0?.found } == true)
        #expect((outcome.withLock { $0?.waited } ?? 30) < 10)
        #expect(journal.producerWakeUps == 1)
        journal.close()
    }
}
