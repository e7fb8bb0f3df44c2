import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Each storage and delivery field of `AnalyticsConfiguration` takes effect in a running
/// `Analytics`: a real SQLite store in a temporary directory, a real loopback server, a real
/// NDJSON file. (The data-quality fields are in `AnalyticsQualityEffectTests`, the lifecycle
/// notifications in `AnalyticsLifecycleNotificationTests`.)
@Suite("AnalyticsConfiguration takes effect: store and delivery", .runsAlone)
struct AnalyticsConfigurationEffectTests {
    @Test("store: the SQLite file is created there (mode 0600, folders made) and keeps the events for the next run")
    func storePath() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-store")
        let configuration = fastConfiguration(directory, store: "nested/folder/events.sqlite")
        let path = directory.file("nested/folder/events.sqlite").path
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        #expect(analytics.dispatcher.store?.path == path)
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        #expect(await analytics.drain(timeout: 30).persisted)
        #expect(FileManager.default.fileExists(atPath: path))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        await analytics.close()

        let again = try Analytics(configuration: configuration)
        await again.ready()
        #expect(try again.records().map(\.id) == [id])
        await again.close()
    }

    @Test("appId: Snowplow's aid in the request to the collector")
    func appIDReachesSnowplow() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-appid")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: .snowplow(endpoint: server.baseURL))
        configuration.appID = "shop-ios"
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .pay, action: .tap).first?.eventID)
        let report = await analytics.drain(timeout: 30).report
        #expect(report.delivered == 1)
        let events = snowplowEvents(server)
        #expect(events.count == 1)
        #expect(events.first?["aid"] as? String == "shop-ios")
        #expect(events.first?["eid"] as? String == text(id))
        #expect(server.requests.allSatisfy { $0.path == "/com.snowplowanalytics.snowplow/tp2" && $0.method == "POST" })
        await analytics.close()
    }

    @Test("destination segment: the request reaches the server with Basic authorization, the key not in the body")
    func segmentWithBasicAuthorization() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-segment")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let analytics = try Analytics(configuration: fastConfiguration(directory, destination: segment(server)))
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        let ids = [shop.send(name: .view, action: .open), shop.send(name: .pay, action: .tap)].compactMap { $0.first?.eventID }
        let report = await analytics.drain(timeout: 30).report
        #expect(report.delivered == 2 && report.requests == 1)
        #expect(segmentMessageIDs(server) == ids.map(text))
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/batch")
        #expect(request.headers["authorization"] == "Basic " + Data((testWriteKey + ":").utf8).base64EncodedString())
        #expect(jsonObject(request.body)["writeKey"] == nil)
        #expect(!String(decoding: request.body, as: UTF8.self).contains(testWriteKey))
        await analytics.close()
    }

    @Test("destination segment with writeKeyIn body: the key is in the body, no Authorization header")
    func segmentWithTheKeyInTheBody() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-segment-body")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let analytics = try Analytics(configuration: fastConfiguration(directory, destination: segment(server, authentication: .body)))
        await analytics.ready()
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        #expect(await analytics.drain(timeout: 30).report.delivered == 1)
        let request = try #require(server.requests.first)
        #expect(request.headers["authorization"] == nil)
        #expect(jsonObject(request.body)["writeKey"] as? String == testWriteKey)
        #expect(segmentMessageIDs(server) == [text(id)])
        await analytics.close()
    }

    @Test("destination ndjson: the file gets one line per event")
    func ndjsonFileGetsLines() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-ndjson")
        let file = directory.file("out/events.ndjson")
        let analytics = try Analytics(configuration: fastConfiguration(directory, destination: .ndjson(file: file)))
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        let ids = (0..<3).compactMap { index in shop.send(name: .view, action: .open, userData: ["i": .int(index)]).first?.eventID }
        #expect(await analytics.drain(timeout: 30).report.delivered == 3)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.map { jsonObject(Data($0.utf8))["id"] as? String } == ids.map(text))
        #expect(lines.allSatisfy { jsonObject(Data($0.utf8))["category"] as? String == "Shop" })
        #expect(analytics.counters.store.total == 0)
        await analytics.close()
    }

    @Test("destination none: nothing is delivered, the events stay in the store")
    func noneDeliversNothing() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-none")
        let analytics = try Analytics(configuration: fastConfiguration(directory))
        await analytics.ready()
        #expect(analytics.dispatcher.configuration.destination == nil)
        let shop = analytics.reporter(for: Shop.self)
        shop.send(name: .view, action: .open)
        shop.send(name: .pay, action: .tap)
        let report = await analytics.drain(timeout: 5).report
        #expect(report.delivered == 0 && report.requests == 0)
        #expect(analytics.counters.store.pending == 2)
        #expect(try analytics.records().map(\.status) == [.pending, .pending])
        await analytics.close()
    }

    @Test("destination.maxBatchBytes: a small limit splits the events over several requests")
    func maxBatchBytesSplitsRequests() async throws {
        func requests(maxBatchBytes: Int?) async throws -> (requests: Int, delivered: [String]) {
            let directory = try TemporaryDirectory(prefix: "analytics-effect-maxbatchbytes")
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            var configuration = fastConfiguration(directory, destination: segment(server))
            configuration.destination.maxBatchBytes = maxBatchBytes
            let analytics = try Analytics(configuration: configuration)
            await analytics.ready()
            let shop = analytics.reporter(for: Shop.self)
            for index in 0..<12 { shop.send(name: .view, action: .open, userData: ["i": .int(index), "note": .string(String(repeating: "n", count: 300))]) }
            #expect(await analytics.drain(timeout: 30).report.delivered == 12)
            await analytics.close()
            return (server.requestCount, segmentMessageIDs(server))
        }
        let unlimited = try await requests(maxBatchBytes: nil)
        let limited = try await requests(maxBatchBytes: 1024)
        #expect(unlimited.requests == 1)
        #expect(limited.requests > 3, "12 events of well over 300 bytes each cannot share a 1 KiB request")
        #expect(Set(limited.delivered).count == 12 && limited.delivered.count == 12, "each event delivered once")
    }

    @Test("retry.maxAttempts: against a server answering 500, the event is rejected after that many attempts")
    func retryGivesUpAfterMaxAttempts() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-retry")
        let server = try LoopbackHTTPServer(defaultAction: .respond(status: 500))
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.retry.maxAttempts = 3
        configuration.retry.jitter = .none
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .pay, action: .tap).first?.eventID)
        for _ in 0..<10 where analytics.counters.rejected == 0 { _ = await analytics.drain(timeout: 5).report }
        #expect(analytics.counters.rejected == 1)
        #expect(server.requestCount == 3)
        #expect(segmentMessageIDs(server) == Array(repeating: text(id), count: 3))
        let record = try #require(try analytics.records(StoreQuery(status: .rejected)).first)
        #expect(record.id == id && record.attempts == 3)
        #expect(record.lastError?.contains("gave up after 3 attempts") == true, "\(record.lastError ?? "")")
        await analytics.close()
    }

    @Test("strategies boot: pending events of an earlier run are delivered at start; without it they wait")
    func bootDeliversPendingEvents() async throws {
        for boot in [true, false] {
            let directory = try TemporaryDirectory(prefix: "analytics-effect-boot")
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let first = try Analytics(configuration: fastConfiguration(directory))
            await first.ready()
            let shop = first.reporter(for: Shop.self)
            let ids = [shop.send(name: .view, action: .open), shop.send(name: .pay, action: .tap)].compactMap { $0.first?.eventID }
            await first.close()

            var configuration = fastConfiguration(directory, destination: segment(server))
            configuration.strategies = boot ? [.boot] : [.willEnterForeground, .didEnterBackground, .reachabilityPings, .initialEvents]
            let second = try Analytics(configuration: configuration)
            await second.ready()
            if boot {
                #expect(await eventually { Set(segmentMessageIDs(server)) == Set(ids.map(text)) })
            } else {
                await pause(0.4)
                #expect(server.requestCount == 0)
                #expect(second.counters.store.pending == 2)
            }
            await second.close()
        }
    }

    @Test("strategies: each lifecycle moment delivers only when its strategy is set", arguments: [
        (LifecycleEvent.didEnterBackground, BatchDispatchStrategy.didEnterBackground),
        (.willEnterForeground, .willEnterForeground),
        (.reachable, .reachabilityPings),
    ])
    func lifecycleStrategies(event: LifecycleEvent, strategy: BatchDispatchStrategy) async throws {
        for enabled in [true, false] {
            let directory = try TemporaryDirectory(prefix: "analytics-effect-strategy")
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            var configuration = fastConfiguration(directory, destination: segment(server))
            configuration.strategies = enabled ? strategy : BatchDispatchStrategy.all.subtracting([strategy, .boot, .initialEvents])
            let analytics = try Analytics(configuration: configuration)
            await analytics.ready()
            let id = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
            #expect(await persisted(analytics, 1))
            await pause(0.1)
            #expect(server.requestCount == 0)
            analytics.handle(event)
            if enabled {
                #expect(await eventually { segmentMessageIDs(server) == [text(id)] }, "\(event)")
            } else {
                await pause(0.3)
                #expect(server.requestCount == 0, "\(event) without its strategy")
            }
            await analytics.close()
        }
    }

    @Test("deliveredHistory: the monitor's records keep that many delivered events; 0 keeps none")
    func deliveredHistoryKeepsDeliveredRows() async throws {
        for history in [0, 2, 10] {
            let directory = try TemporaryDirectory(prefix: "analytics-effect-history")
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            var configuration = fastConfiguration(directory, destination: segment(server))
            configuration.deliveredHistory = history
            let analytics = try Analytics(configuration: configuration)
            await analytics.ready()
            let shop = analytics.reporter(for: Shop.self)
            let ids = (0..<3).compactMap { shop.send(name: .view, action: .open, userData: ["i": .int($0)]).first?.eventID }
            #expect(await analytics.drain(timeout: 30).report.delivered == 3)
            let delivered = try analytics.records(StoreQuery(status: .delivered))
            #expect(delivered.count == min(history, 3), "deliveredHistory \(history)")
            #expect(delivered.allSatisfy { $0.status == .delivered })
            #expect(Set(delivered.map(\.id)).isSubset(of: Set(ids)))
            await analytics.close()
        }
    }
}
