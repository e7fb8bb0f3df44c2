import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The batch section takes effect: delivery size, flush interval, queue bounds, initial events.
extension AnalyticsConfigurationEffectTests {
    @Test("batch.deliverySize: that many pending events trigger a delivery; fewer do not")
    func deliverySizeTriggersDelivery() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-deliverysize")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.batch.deliverySize = 3
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        shop.send(name: .view, action: .open, userData: ["i": 1])
        shop.send(name: .view, action: .open, userData: ["i": 2])
        #expect(await persisted(analytics, 2))
        await pause(0.3)
        #expect(server.requestCount == 0, "two of three: no delivery yet")
        shop.send(name: .view, action: .open, userData: ["i": 3])
        #expect(await eventually { segmentMessageIDs(server).count == 3 })
        #expect(server.requests.first.map { (jsonObject($0.body)["batch"] as? [Any])?.count } == 3)
        await analytics.close()
    }

    @Test("batch.flushInterval: the timer delivers without any other trigger")
    func flushIntervalTimerDelivers() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-flushinterval")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.batch.flushInterval = 0.2
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        await analytics.close()
    }

    @Test("batch.maxQueueSize: the oldest pending events are evicted, counted and reported")
    func maxQueueSizeEvicts() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-maxqueuesize")
        var configuration = fastConfiguration(directory)
        configuration.batch.maxQueueSize = 5
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        let ids = (0..<8).compactMap { shop.send(name: .view, action: .open, userData: ["i": .int($0)]).first?.eventID }
        #expect(await analytics.drain(timeout: 30).persisted)
        #expect(analytics.counters.evicted == 3)
        #expect(analytics.counters.store.pending == 5)
        #expect(try analytics.records().map(\.id) == Array(ids.suffix(5)))
        #expect(await eventually { analytics.diagnostics.snapshot().recentIssues.contains { $0.message.contains("evicted") } })
        await analytics.close()
    }

    @Test("batch.maxQueueBytes: the store stays within the byte budget by evicting the oldest")
    func maxQueueBytesEvicts() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-maxqueuebytes")
        var configuration = fastConfiguration(directory)
        configuration.batch.maxQueueBytes = 8192
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        for index in 0..<30 { shop.send(name: .view, action: .open, userData: ["i": .int(index), "note": .string(String(repeating: "b", count: 400))]) }
        #expect(await analytics.drain(timeout: 30).persisted)
        let counters = analytics.counters
        #expect(counters.evicted > 0)
        #expect(counters.store.bytes <= 8192)
        #expect(counters.store.pending + counters.evicted + counters.refused == 30)
        await analytics.close()
    }

    @Test("batch and retry reach the Dispatcher whole (overflowQueueSize, initialEventsCount, every retry field)")
    func batchAndRetryReachTheDispatcher() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-dispatcher-config")
        var configuration = fastConfiguration(directory)
        configuration.batch = BatchConfiguration(
            maxQueueSize: 900, maxQueueBytes: 1 << 20, overflowQueueSize: 17, deliverySize: 9, flushInterval: 0, initialEventsCount: 4)
        configuration.retry = RetryPolicy(baseDelay: 0.25, multiplier: 3, maxDelay: 7, jitter: .equal, maxAttempts: 6, maxAge: 99, maxRetryAfter: 11)
        configuration.strategies = [.reachabilityPings, .initialEvents]
        configuration.deliveredHistory = 12
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let dispatcherConfiguration = analytics.dispatcher.configuration
        #expect(dispatcherConfiguration.batch.overflowQueueSize == 17)
        #expect(dispatcherConfiguration.batch == configuration.batch)
        #expect(dispatcherConfiguration.retryPolicy == configuration.retry)
        #expect(dispatcherConfiguration.strategy == [.reachabilityPings, .initialEvents])
        #expect(dispatcherConfiguration.deliveredHistory == 12)
        #expect(dispatcherConfiguration.storePath == configuration.storePath)
        await analytics.close()
    }

    @Test("strategies initialEvents with batch.initialEventsCount: the first events are delivered at once, later ones wait")
    func initialEventsAreDeliveredAtOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-initial")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.strategies = [.initialEvents]
        configuration.batch.initialEventsCount = 2
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        shop.send(name: .view, action: .open, userData: ["i": 1])
        #expect(await eventually { segmentMessageIDs(server).count == 1 })
        shop.send(name: .view, action: .open, userData: ["i": 2])
        #expect(await eventually { segmentMessageIDs(server).count == 2 })
        // A round delivers whatever is pending while it runs: on a loaded machine the round
        // that delivered the second event may still be running, and would take a third along.
        // The third event is sent once that round has settled.
        #expect(await eventually { analytics.counters.delivered == 2 && analytics.counters.store.inFlight == 0 })
        await pause(0.3)
        shop.send(name: .view, action: .open, userData: ["i": 3])
        #expect(await persisted(analytics, 3))
        await pause(0.3)
        #expect(segmentMessageIDs(server).count == 2, "the third event waits for a batch")
        #expect(analytics.counters.store.pending == 1)
        await analytics.close()
    }
}
