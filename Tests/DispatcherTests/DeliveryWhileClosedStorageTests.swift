@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// ``Dispatcher/pause()``, reachability and ``Dispatcher/requestDelivery()`` called while the
/// storage is not open (opening in the background, or released for suspension) hold once it
/// opens, as they do while it is open.
@Suite("Dispatcher: delivery calls while the storage is not open")
struct DeliveryWhileClosedStorageTests {
    private func configuration(
        _ directory: TemporaryDirectory, server: LoopbackHTTPServer, deliverySize: Int, strategy: BatchDispatchStrategy,
        background: Bool
    ) throws -> DispatcherConfiguration {
        let destination = try SegmentDestination(
            endpoint: server.baseURL, writeKey: "secret-write-key", transport: URLSessionTransport(requestTimeout: 5))
        var configuration = DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: deliverySize, flushInterval: 0), strategy: strategy,
            retryPolicy: RetryPolicy(baseDelay: 0.05, maxDelay: 0.2))
        configuration.opensStorageInBackground = background
        return configuration
    }

    /// A Dispatcher whose background opening waits until `semaphore` is signalled (or 20 s).
    private func held(_ configuration: DispatcherConfiguration, _ semaphore: DispatchSemaphore) throws -> Dispatcher {
        try Dispatcher.$beforeBackgroundOpen.withValue({ _ = semaphore.wait(timeout: .now() + 20) }) {
            try Dispatcher(configuration: configuration)
        }
    }

    private func send(_ count: Int, to dispatcher: Dispatcher) {
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for _ in 0..<count { reporter.send(name: .view, action: .open) }
    }

    @Test("pause() while opening holds once open: nothing is delivered until resume()")
    func pauseWhileOpening() async throws {
        let directory = try TemporaryDirectory(prefix: "opening-pause")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let semaphore = DispatchSemaphore(value: 0)
        let dispatcher = try held(configuration(directory, server: server, deliverySize: 10, strategy: [.boot], background: true), semaphore)
        #expect(dispatcher.storage == .opening)
        dispatcher.pause()
        #expect(dispatcher.isPaused)
        send(30, to: dispatcher)
        semaphore.signal()
        #expect(await dispatcher.storageReady() == .available)
        #expect(await eventually(timeout: 10) { dispatcher.counters.store.pending == 30 })
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(server.requestCount == 0, "boot and full batches wait while paused")
        #expect(dispatcher.isPaused)
        dispatcher.resume()
        #expect(!dispatcher.isPaused)
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 30 })
        await dispatcher.close()
    }

    @Test("unreachable while opening holds once open, until reachable")
    func unreachableWhileOpening() async throws {
        let directory = try TemporaryDirectory(prefix: "opening-unreachable")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let semaphore = DispatchSemaphore(value: 0)
        let dispatcher = try held(
            configuration(directory, server: server, deliverySize: 10, strategy: [.boot, .reachabilityPings], background: true), semaphore)
        dispatcher.handle(.unreachable)
        send(30, to: dispatcher)
        semaphore.signal()
        #expect(await dispatcher.storageReady() == .available)
        #expect(await eventually(timeout: 10) { dispatcher.counters.store.pending == 30 })
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(server.requestCount == 0, "nothing is tried while unreachable")
        dispatcher.handle(.reachable)
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 30 })
        await dispatcher.close()
    }

    @Test("requestDelivery() while opening runs once open")
    func requestWhileOpening() async throws {
        let directory = try TemporaryDirectory(prefix: "opening-request")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let semaphore = DispatchSemaphore(value: 0)
        // No boot, no timer, batches far from full: only the request delivers.
        let dispatcher = try held(configuration(directory, server: server, deliverySize: 1_000, strategy: [], background: true), semaphore)
        send(5, to: dispatcher)
        dispatcher.requestDelivery()
        semaphore.signal()
        #expect(await dispatcher.storageReady() == .available)
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 5 })
        await dispatcher.close()
    }

    @Test("pause() while released for suspension holds once resumed, until resume()")
    func callsWhileSuspended() async throws {
        let directory = try TemporaryDirectory(prefix: "suspended-delivery-calls")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try Dispatcher(configuration: configuration(
            directory, server: server, deliverySize: 10, strategy: [.boot], background: false))
        #expect(await dispatcher.releaseStorageForSuspension(timeout: 5))
        dispatcher.pause()
        #expect(dispatcher.isPaused)
        send(30, to: dispatcher)
        #expect(await dispatcher.resumeStorageAfterSuspension() == .available)
        #expect(await eventually(timeout: 10) { dispatcher.counters.store.pending == 30 })
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(server.requestCount == 0, "still paused after resuming the storage")
        #expect(dispatcher.isPaused)
        dispatcher.resume()
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 30 })
        await dispatcher.close()
    }

    @Test("requestDelivery() while released for suspension runs once resumed")
    func requestWhileSuspended() async throws {
        let directory = try TemporaryDirectory(prefix: "suspended-request")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try Dispatcher(configuration: configuration(
            directory, server: server, deliverySize: 1_000, strategy: [], background: false))
        #expect(await dispatcher.releaseStorageForSuspension(timeout: 5))
        send(5, to: dispatcher)
        dispatcher.requestDelivery()
        #expect(await dispatcher.resumeStorageAfterSuspension() == .available)
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 5 })
        await dispatcher.close()
    }
}
