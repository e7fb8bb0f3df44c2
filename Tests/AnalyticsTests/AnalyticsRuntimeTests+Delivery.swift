import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// requestDelivery, drain, pause, resume and close through the runtime.
extension AnalyticsRuntimeTests {
    @Test("drain delivers every pending event to the loopback server and reports it")
    func drainDelivers() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-flush")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let analytics = try Analytics(configuration: fastConfiguration(directory, destination: segment(server)))
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        let ids = (0..<4).compactMap { shop.send(name: .view, action: .open, userData: ["i": .int($0)]).first?.eventID }
        let report = await analytics.drain(timeout: 5).report
        #expect(report.delivered == 4 && report.requests == 1 && report.stopReason == .drained)
        #expect(segmentMessageIDs(server) == ids.map(text))
        #expect(analytics.counters.delivered == 4 && analytics.counters.store.total == 0)
        await analytics.close()
    }

    @Test("requestDelivery asks without waiting: nothing goes out until it is called, then everything does")
    func requestDeliveryDoesNotWait() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-request")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let analytics = try Analytics(configuration: fastConfiguration(directory, destination: segment(server)))
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        let ids = (0..<4).compactMap { shop.send(name: .view, action: .open, userData: ["i": .int($0)]).first?.eventID }
        // No strategy, no flush interval, less than a batch: nothing is delivered by itself.
        #expect(await eventually(timeout: 2) { analytics.counters.store.pending == 4 })
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(segmentMessageIDs(server).isEmpty)

        analytics.requestDelivery()
        #expect(await eventually { analytics.counters.delivered == 4 })
        #expect(segmentMessageIDs(server) == ids.map(text))
        await analytics.close()
    }

    @Test("drain persists and makes one delivery attempt, saying so")
    func drainResult() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-drain")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let analytics = try Analytics(configuration: fastConfiguration(directory, destination: segment(server)))
        await analytics.ready()
        analytics.reporter(for: Shop.self).send(name: .view, action: .open)
        let result = await analytics.drain(timeout: 5)
        #expect(result.persisted && result.deliveryAttempted && !result.timedOut)
        #expect(result.report.delivered == 1)
        #expect(segmentMessageIDs(server).count == 1)
        await analytics.close()

        let storeOnly = try Analytics(configuration: fastConfiguration(directory, store: "store-only.sqlite"))
        await storeOnly.ready()
        storeOnly.reporter(for: Shop.self).send(name: .view, action: .open)
        let stored = await storeOnly.drain(timeout: 5)
        #expect(stored.persisted && !stored.timedOut && stored.report == DeliveryReport())
        #expect(storeOnly.counters.store.pending == 1)
        await storeOnly.close()
    }

    @Test("pause stops delivery, events stay pending; resume delivers")
    func pauseAndResume() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-pause")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.batch.deliverySize = 1
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        analytics.pause()
        #expect(analytics.isPaused)
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        let report = await analytics.drain(timeout: 5).report
        #expect(report.delivered == 0)
        await pause(0.3)
        #expect(server.requestCount == 0, "nothing is delivered while paused, not even by a full batch or a flush")
        #expect(analytics.counters.store.pending == 1)
        analytics.resume()
        #expect(!analytics.isPaused)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] }, "resume delivers what was asked for meanwhile")
        await analytics.close()
    }

    @Test("close: later events are refused and counted")
    func sendAfterCloseIsRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-close")
        let analytics = try Analytics(configuration: fastConfiguration(directory))
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        shop.send(name: .view, action: .open, userData: ["i": 1])
        await analytics.close()
        let receipts = shop.send(name: .view, action: .open, userData: ["i": 2])
        #expect(!receipts.contains { $0.plugin == "dispatcher" })
        #expect(analytics.counters.refused == 1)
        #expect(analytics.counters.refusals[.closed] == 1)
        await analytics.close()

        let reopened = try Analytics(configuration: fastConfiguration(directory))
        await reopened.ready()
        #expect(reopened.counters.store.pending == 1, "what was sent before close() was kept")
        await reopened.close()
    }
}
