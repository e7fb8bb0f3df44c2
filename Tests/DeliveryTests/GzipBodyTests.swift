@testable import Dispatcher
import DispatcherTestKit
import Foundation
import Testing
import TestSupport
import Tracking

@Suite("gzip request bodies: the encoder, and what a real collector on 127.0.0.1 receives")
struct GzipBodyTests {
    /// Encodes `bytes`, checks the gzip magic, decodes, and returns the encoded size.
    private func roundTrip(_ bytes: Data) throws -> Int {
        let encoded = try #require(RequestCompression.gzip.encode(bytes))
        #expect(Array(encoded.prefix(2)) == [0x1F, 0x8B], "not a gzip member")
        #expect(GzipDecoder.decode(encoded) == bytes)
        return encoded.count
    }

    @Test("encode then inflate gives the input back: JSON, empty, large, incompressible")
    func roundTrips() throws {
        let json = Data(String(repeating: #"{"type":"track","event":"Cart checkout pay","properties":{"quantity":2}},"#, count: 200).utf8)
        #expect(try roundTrip(json) < json.count / 10)
        #expect(try roundTrip(Data()) > 0)
        // Built a line or a word at a time: cheap, so the test holds a thread for little time.
        var large = Data(capacity: 3_000_100)
        var line = 0
        while large.count < 3_000_000 {
            large.append(contentsOf: #"{"index":\#(line),"sku":"SKU-\#(line % 97)","price":\#(line % 1_000).5},"#.utf8)
            line += 1
        }
        #expect(try roundTrip(large) < large.count / 5)
        var generator = SeededGenerator(seed: 23)
        var random = Data(capacity: 200_000)
        for _ in 0..<25_000 { withUnsafeBytes(of: generator.next()) { random.append(contentsOf: $0) } }
        // Incompressible: stored blocks, a few bytes over the input, still exact.
        let randomSize = try roundTrip(random)
        #expect(randomSize > random.count && randomSize < random.count + 1_024)
    }

    @Test("plain is the body as it is; the decoder refuses what is not gzip, cut short, or over its limit")
    func plainAndBadInput() throws {
        let body = Data("hello".utf8)
        #expect(RequestCompression.plain.encode(body) == body)
        #expect(GzipDecoder.decode(body) == nil)
        let encoded = try #require(RequestCompression.gzip.encode(Data(repeating: 0x41, count: 100_000)))
        #expect(GzipDecoder.decode(encoded.prefix(encoded.count - 4)) == nil)
        #expect(GzipDecoder.decode(encoded, limit: 1_000) == nil)
    }

    @Test("Segment sends gzip with Content-Encoding, and the body decodes to the plain request's JSON", .runsAlone)
    func segmentSendsGzip() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "loop-key",
                                                 transport: URLSessionTransport(requestTimeout: 5))
        #expect(destination.compression == .gzip)
        let batch = (0..<50).map { DeliveryFixtures.stored(DeliveryFixtures.trackedEvent(), sequence: Int64($0 + 1)) }
        let sentAt = Date()
        let result = await destination.deliver(batch, sentAt: sentAt)
        #expect(result.outcome == .delivered && !result.compressionRefused)
        let recorded = try #require(server.requests.first)
        #expect(server.requestCount == 1)
        #expect(recorded.headers["content-encoding"] == "gzip")
        #expect(recorded.headers["content-type"] == "application/json")
        let plain = try #require(destination.makeRequest(for: batch, sentAt: sentAt).0)
        #expect(recorded.body == plain.body)
        #expect(recorded.bodyLength < plain.body.count / 4, "\(recorded.bodyLength) bytes for \(plain.body.count) plain")
        #expect((try DeliveryFixtures.object(recorded.body)["batch"] as? [Any])?.count == 50)
    }

    @Test("Snowplow and compression .plain send no Content-Encoding", .runsAlone)
    func plainByDefaultForSnowplow() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        let snowplow = try SnowplowDestination(endpoint: server.baseURL, appID: "shop", transport: URLSessionTransport(requestTimeout: 5))
        #expect(snowplow.compression == .plain)
        let segment = try SegmentDestination(endpoint: server.baseURL, writeKey: "k", transport: URLSessionTransport(requestTimeout: 5),
                                             compression: .plain)
        let batch = [DeliveryFixtures.stored(DeliveryFixtures.trackedEvent())]
        #expect(await snowplow.deliver(batch, sentAt: Date()).outcome == .delivered)
        #expect(await segment.deliver(batch, sentAt: Date()).outcome == .delivered)
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.headers["content-encoding"] == nil && $0.bodyLength == $0.body.count })
    }

    @Test("a 415 to gzip: sent again plain at once, delivered, marked refused; a 400 to both: one rejection, not marked")
    func refusalsThroughTheSpy() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:9"))
        let spy = SpyTransport(responses: [.success(HTTPResponse(statusCode: 415))])
        let destination = try SegmentDestination(endpoint: url, writeKey: "k", transport: spy)
        let batch = [DeliveryFixtures.stored(DeliveryFixtures.trackedEvent())]
        let result = await destination.deliver(batch, sentAt: Date())
        #expect(result.outcome == .delivered && result.compressionRefused && result.statusCode == 200)
        #expect(spy.requests.map { $0.header("Content-Encoding") } == ["gzip", nil])

        let both = SpyTransport(responses: [.success(HTTPResponse(statusCode: 400)), .success(HTTPResponse(statusCode: 400))])
        let refused = await (try SegmentDestination(endpoint: url, writeKey: "k", transport: both)).deliver(batch, sentAt: Date())
        #expect(!refused.compressionRefused && refused.statusCode == 400)
        guard case .rejected = refused.outcome else { Issue.record("not a rejection: \(refused.outcome)"); return }
        #expect(both.requests.count == 2)
    }
}
