@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The journal wakes its consumer rarely: once per idle period, then only when many records wait.
@Suite struct GroupCommitTests {
    /// Runs `body` on a new thread and returns a semaphore signalled when it ends.
    private func background(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }

    @Test func aFirstRecordWakesASleepingConsumerWhichThenLingers() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try EventJournal(directory: folder.file("journal").path, lingerInterval: 0.4)
        let returned = LockedCounter()
        let done = background {
            if journal.waitForRecords(after: .start, timeout: 10) { returned.add(1) }
        }
        Thread.sleep(forTimeInterval: 0.05)
        let start = Date()
        try journal.append(sampleEvent(0))
        #expect(done.wait(timeout: .now() + 5) == .success)
        let elapsed = Date().timeIntervalSince(start)
        #expect(returned.value == 1)
        #expect(elapsed >= 0.3, "the consumer took the record after \(elapsed) s instead of lingering")
        #expect(journal.producerWakeUps == 1)
        journal.close()
    }

    @Test func manyWaitingRecordsEndTheLingerAtOnce() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try EventJournal(directory: folder.file("journal").path, lingerInterval: 30)
        let done = background { journal.waitForRecords(after: .start, timeout: 60) }
        Thread.sleep(forTimeInterval: 0.05)
        for index in 0..<(EventJournal.wakeThreshold - 1) { try journal.append(sampleEvent(index)) }
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut, "woken before the threshold")
        try journal.append(sampleEvent(999))
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(journal.producerWakeUps == 2) // the first record, then the threshold
        journal.close()
    }

    @Test func wakeConsumerEndsTheLingerAtOnce() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try EventJournal(directory: folder.file("journal").path, lingerInterval: 30)
        let done = background { journal.waitForRecords(after: .start, timeout: 60) }
        Thread.sleep(forTimeInterval: 0.05)
        try journal.append(sampleEvent(0))
        Thread.sleep(forTimeInterval: 0.05)
        journal.wakeConsumer()
        #expect(done.wait(timeout: .now() + 10) == .success)
        journal.close()
    }

    @Test func aSteadyTrickleCostsFarFewerWakeUpsThanEvents() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let writer = try IngestWriter(store: store)
        let count = 4_000
        let deadline = Date(timeIntervalSinceNow: 10)
        var sent = 0
        while sent < count, Date() < deadline {
            #expect(throws: Never.self) { try writer.write(sampleEvent(sent)) }
            sent += 1
            let until = DispatchTime.now().uptimeNanoseconds + 20_000 // one event every ~20 µs
            while DispatchTime.now().uptimeNanoseconds < until {}
        }
        #expect(writer.waitUntilPersisted(timeout: 10))
        #expect(store.counts().pending == sent)
        let wakeUps = writer.journal.producerWakeUps
        #expect(wakeUps * 8 < sent, "\(wakeUps) wake-ups for \(sent) events")
        #expect(writer.close())
    }

    @Test func waitUntilPersistedDoesNotWaitForTheLinger() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let writer = try IngestWriter(store: store)
        for round in 0..<20 {
            #expect(throws: Never.self) { try writer.write(sampleEvent(round)) }
            #expect(writer.waitUntilPersisted(timeout: 5))
            #expect(store.counts().pending == round + 1)
        }
        #expect(writer.close())
    }
}
