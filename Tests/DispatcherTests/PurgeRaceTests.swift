@testable import DataQuality
@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// A transport to a real loopback collector whose answer reaches the Dispatcher `delay` seconds
/// after the collector received the request (a slow collector); cancelling the request ends
/// the wait.
private struct LateAnswerTransport: HTTPTransport {
    let inner = URLSessionTransport(requestTimeout: 10)
    let delay: TimeInterval

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await inner.send(request)
        do { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) } catch { throw .cancelled }
        return response
    }
}

/// Purge and denied consent against delivery in flight, and what they leave on disk.
@Suite("Purge and deny leave nothing to send and nothing on disk", .serialized, .runsAlone)
struct PurgeRaceTests {
    @Test("Once purge() returns, no event stored before it is sent: not the request in flight's successor, not the batch claimed ahead")
    func purgeBeatsThePrefetchedBatch() async throws {
        let directory = try TemporaryDirectory(prefix: "purge-race")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let destination = try SegmentDestination(
            endpoint: server.baseURL, writeKey: "secret-write-key", transport: LateAnswerTransport(delay: 2))
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: 10, flushInterval: 0), strategy: []))
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        let ids = Set((0..<50).compactMap { index in
            reporter.send(name: .pay, action: .tap, userData: ["n": .int(index)]).first?.eventID.uuidString.lowercased()
        })
        #expect(ids.count == 50)
        let flushing = Task { await dispatcher.drain(timeout: 10).report }
        try await Task.sleep(nanoseconds: 700_000_000)
        try await dispatcher.purge()
        let seenWhenPurged = server.requests.count
        _ = await flushing.value
        // Long enough for the batch claimed ahead to go out, had it survived.
        try await Task.sleep(nanoseconds: 3_000_000_000)
        let requests = server.requests
        let late = requests.dropFirst(seenWhenPurged).flatMap { request -> [String] in
            let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            return (body?["batch"] as? [[String: Any]] ?? []).compactMap { $0["messageId"] as? String }
        }
        #expect(late.filter(ids.contains).isEmpty, "\(late.count) purged events sent after purge() returned")
        #expect(seenWhenPurged <= 1, "only the request already in flight")
        #expect(dispatcher.counters.store.total == 0)
        await dispatcher.close()
    }

    @Test("After a denial, the denied payloads are in none of the store file, its log and the journal folder")
    func denialOverwritesWhatItDeletes() async throws {
        let directory = try TemporaryDirectory(prefix: "deny-disk")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try makeDispatcher(directory, server: server)
        let store = try #require(dispatcher.store)
        let identity = ClosureIdentityStore(
            get: { try? store.metadata($0) }, set: { try store.setMetadata($0, $1) }, remove: { try store.setMetadata($0, nil) })
        let quality = DataQualityStack(configuration: QualityConfiguration(consentCategories: [Checkout.category]), store: identity)
        let reporter = EventReporter<Checkout>(plugins: [dispatcher], processors: quality.processors)
        for index in 0..<200 { reporter.send(name: .view, action: .open, userData: ["note": .string("DENIEDPLANT-\(index)")]) }
        #expect(await eventually(timeout: 10) { dispatcher.counters.store.held == 200 })
        quality.privacy.setConsent(.denied, for: Checkout.category)
        #expect(try await dispatcher.deleteHeld(category: Checkout.category) == 200)
        #expect(occurrences(of: "DENIEDPLANT-", under: directory.url) == 0, "while running")
        await dispatcher.close()
        #expect(occurrences(of: "DENIEDPLANT-", under: directory.url) == 0, "after close")
    }

    @Test("After purge(), the purged payloads are in none of the store file, its log and the journal folder")
    func purgeOverwritesWhatItDeletes() async throws {
        let directory = try TemporaryDirectory(prefix: "purge-disk")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // No batch is full, no round runs: the events stay stored until the purge.
        let dispatcher = try makeDispatcher(directory, server: server, batch: BatchConfiguration(deliverySize: 1_000, flushInterval: 0))
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for index in 0..<200 { reporter.send(name: .pay, action: .tap, userData: ["note": .string("PURGEDPLANT-\(index)")]) }
        #expect(await eventually(timeout: 10) { dispatcher.counters.store.pending == 200 })
        try await dispatcher.purge()
        #expect(occurrences(of: "PURGEDPLANT-", under: directory.url) == 0, "while running")
        reporter.send(name: .pay, action: .tap, userData: ["note": "kept"])
        await dispatcher.close()
        #expect(occurrences(of: "PURGEDPLANT-", under: directory.url) == 0, "after close")
        #expect(segmentMessageIDs(server).count == 0)
    }
}
