@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Eight threads sending through one reporter into one Dispatcher while a task flushes it and
/// a thread pauses, resumes and backgrounds it. Run under `swift test --sanitize=thread` too.
@Suite("Reliability: Concurrency", .serialized, .runsAlone)
struct ConcurrencyTests {
    static let threads = 8
    static let perThread = 2_000

    @Test("8 × 2,000 events sent during flushes, pauses, resumes and backgrounding: every id arrives, none dropped")
    func sendersAndControlsTogether() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-concurrency")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 90)
        defer { server.stop() }
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "reliability-key",
                                                 transport: URLSessionTransport(requestTimeout: 10))
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: 250, flushInterval: 0.05),
            retryPolicy: RetryPolicy(baseDelay: 0.05, maxDelay: 0.5)))
        let reporter = EventReporter<Probe>(plugins: [dispatcher])

        let sendersDone = StopFlag()
        let controlsStarted = StopFlag()
        // A task flushes again and again; a thread pauses, backgrounds and resumes meanwhile.
        let flusher = Task {
            var flushes = 0
            let giveUp = Date().addingTimeInterval(30)
            while !sendersDone.isRaised, Date() < giveUp, flushes < 10_000 {
                _ = await dispatcher.drain(timeout: 0.25).report
                flushes += 1
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
            return flushes
        }
        // On a thread of its own: tests that hold Swift's cooperative pool cannot hold it back.
        let toggleCount = LockedValue(0)
        let toggler = onNewThread {
            var toggles = 0
            let giveUp = Date().addingTimeInterval(30)
            while !sendersDone.isRaised, Date() < giveUp, toggles < 100_000 {
                switch toggles % 3 {
                case 0: dispatcher.pause()
                case 1: dispatcher.handle(.didEnterBackground)
                default: dispatcher.resume()
                }
                toggles += 1
                if toggles == 3 { controlsStarted.raise() }
                usleep(500)
            }
            dispatcher.resume()
            toggleCount.withLock { $0 = toggles }
        }
        let perThread = Self.perThread
        let sentByThread = await SenderThreads.run(Self.threads) { thread in
            var ids: [UUID] = []
            ids.reserveCapacity(perThread)
            // Start once the controls run, and pace the sends so that they overlap them.
            let gate = Date().addingTimeInterval(5)
            while !controlsStarted.isRaised, Date() < gate { usleep(200) }
            for index in 0..<perThread {
                if index % 100 == 99 { usleep(500) }
                let receipts = reporter.send(name: .view, action: .open, userData: [
                    "thread": .int(thread), "index": .int(index), "screen": "home", "ratio": .double(Double(index) / 7),
                ])
                ids.append(contentsOf: receipts.map(\.eventID))
            }
            return ids
        }
        sendersDone.raise()
        let flushes = await flusher.value
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            toggler.notify(queue: .global()) { continuation.resume() }
        }
        let toggles = toggleCount.withLock { $0 }
        #expect(flushes >= 1 && toggles > 3, "the controls did not run during the sends: \(flushes) flushes, \(toggles) toggles")
        #expect(!dispatcher.isPaused)

        let drained = await dispatcher.drain(timeout: 20)
        #expect(drained.persisted)
        let settled = await dispatcher.flushUntilSettled(timeout: 30)
        #expect(settled, "still pending: \(dispatcher.counters.store)")
        let counters = dispatcher.counters
        await dispatcher.close()

        let sent = sentByThread.flatMap { $0 }
        let total = Self.threads * Self.perThread
        #expect(sent.count == total, "\(total - sent.count) sends returned no receipt")
        #expect(Set(sent).count == total, "ids repeat")
        #expect(counters.sent == total && counters.refused == 0, "\(counters)")
        #expect(counters.delivered == total && counters.rejected == 0, "\(counters)")

        let requests = try SegmentCapture.ids(server)
        let arrived = Set(requests.filter(\.acknowledged).flatMap(\.messages))
        let expected = Set(sent.map { $0.uuidString.lowercased() })
        #expect(arrived.count == total, "\(arrived.count) distinct ids arrived, expected \(total)")
        #expect(arrived == expected, "\(expected.subtracting(arrived).count) missing, \(arrived.subtracting(expected).count) unknown")
        #expect(server.maxConcurrentRequests == 1, "more than one request in flight")
        print("concurrency: \(total) events from \(Self.threads) threads, \(flushes) flushes and \(toggles) pause/background/resume calls during the sends, \(requests.count) requests")
    }

    /// A Dispatcher whose automatic round is busy delivering a backlog in slow batches of 10.
    private static func busyDispatcher(_ directory: TemporaryDirectory) async throws -> (Dispatcher, SlowDestination) {
        let destination = SlowDestination(delay: 0.05)
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: 10, flushInterval: 0)))
        let reporter = EventReporter<Probe>(plugins: [dispatcher])
        for index in 0..<1_000 { reporter.send(name: .tap, action: .other, userData: ["index": .int(index)]) }
        // Reaching `deliverySize` started an automatic round; wait until it is under way.
        let deadline = Date().addingTimeInterval(10)
        while destination.batchCount < 2, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        return (dispatcher, destination)
    }

    @Test("pause() stops a running automatic round after the batch in flight")
    func pauseStopsTheRunningRound() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-pause")
        defer { directory.remove() }
        let (dispatcher, destination) = try await Self.busyDispatcher(directory)
        #expect(destination.batchCount >= 2, "the automatic round never started")
        dispatcher.pause()
        let atPause = destination.batchCount
        try await Task.sleep(nanoseconds: 600_000_000)
        let afterPause = destination.batchCount
        #expect(afterPause <= atPause + 1, "\(afterPause - atPause) batches were delivered in the 0.6 s after pause()")
        dispatcher.resume()
        await dispatcher.close(timeout: 2)
    }

    @Test("drain(timeout:) returns within its timeout while an automatic round is running")
    func flushHonoursItsTimeoutDuringARound() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-flush-timeout")
        defer { directory.remove() }
        let (dispatcher, destination) = try await Self.busyDispatcher(directory)
        #expect(destination.batchCount >= 2, "the automatic round never started")
        let started = Date()
        _ = await dispatcher.drain(timeout: 0.3).report
        let took = Date().timeIntervalSince(started)
        #expect(took < 1.5, "flush(timeout: 0.3) took \(took) s")
        dispatcher.pause()
        await dispatcher.close(timeout: 2)
    }
}
