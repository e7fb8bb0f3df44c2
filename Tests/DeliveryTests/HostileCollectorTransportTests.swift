@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// Each transport against a collector on 127.0.0.1 that misbehaves: a response body is read up
/// to its bound and no further, and a request ends at its deadline whatever the collector does.
@Suite("Transport: a hostile collector", .serialized, .runsAlone)
struct HostileCollectorTransportTests {
    /// The platform's default transport (libcurl on Linux), and `URLSessionTransport`.
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case standard, urlSession
        var testDescription: String { rawValue }
        func make(timeout: TimeInterval) -> any HTTPTransport {
            switch self {
            case .standard: DefaultHTTPTransport.make(requestTimeout: timeout)
            case .urlSession: URLSessionTransport(requestTimeout: timeout)
            }
        }
    }

    private static func request(_ collector: HostileCollector, bodyBytes: Int = 200) -> HTTPRequest {
        HTTPRequest(url: collector.baseURL.appendingPathComponent("v1/batch"),
                    headers: ["Content-Type": "application/json"], body: Data(repeating: UInt8(ascii: "a"), count: bodyBytes))
    }

    /// Sends a small batch to `collector` through `kind` with a 20 s limit, and how long it took.
    private static func timedSend(_ kind: Kind, to collector: HostileCollector) async throws -> (HTTPResponse, TimeInterval) {
        let started = Date()
        let response = try await kind.make(timeout: 20).send(request(collector))
        return (response, Date().timeIntervalSince(started))
    }

    @Test("a 200 with a 200 MB body: at most 4 KiB kept, the rest refused, not counted as delivered", arguments: Kind.allCases)
    func hugeBody(_ kind: Kind) async throws {
        let collector = try HostileCollector(.hugeBody(bytes: 200_000_000), lifetime: 30)
        defer { collector.stop() }
        let (response, seconds) = try await Self.timedSend(kind, to: collector)
        #expect(response.statusCode == 200 && response.bodyTruncated)
        #expect(response.body.count <= 4096, "kept \(response.body.count) bytes")
        #expect(seconds < 5, "took \(seconds) s")
        #expect(collector.bytesWritten < 50_000_000, "the collector wrote \(collector.bytesWritten) bytes before the abort")
        guard case .retry(let reason, _) = DeliveryOutcome(response: response) else {
            Issue.record("a cut-short 200 counted as \(DeliveryOutcome(response: response))")
            return
        }
        #expect(reason.contains("not counted as delivered"), "got: \(reason)")
    }

    @Test("an endless chunked 200: at most 4 KiB kept, the request ends at once", arguments: Kind.allCases)
    func endlessBody(_ kind: Kind) async throws {
        let collector = try HostileCollector(.endlessBody(bytesPerSecond: 20_000_000), lifetime: 30)
        defer { collector.stop() }
        let (response, seconds) = try await Self.timedSend(kind, to: collector)
        #expect(response.statusCode == 200 && response.bodyTruncated && response.body.count <= 4096)
        #expect(seconds < 5, "took \(seconds) s")
        #expect(DeliveryOutcome(response: response) != .delivered)
    }

    @Test("a body of exactly the bound is whole; a 500's long body keeps its status, cut short", arguments: Kind.allCases)
    func boundaries(_ kind: Kind) async throws {
        let exact = try HostileCollector(.respond(status: 200, body: Data(repeating: UInt8(ascii: "z"), count: 4096)), lifetime: 20)
        defer { exact.stop() }
        let whole = try await kind.make(timeout: 10).send(Self.request(exact))
        #expect(whole.statusCode == 200 && !whole.bodyTruncated && whole.body.count == 4096)
        #expect(DeliveryOutcome(response: whole) == .delivered)

        let failing = try HostileCollector(.respond(status: 500, body: Data(repeating: UInt8(ascii: "e"), count: 100_000)), lifetime: 20)
        defer { failing.stop() }
        let cut = try await kind.make(timeout: 10).send(Self.request(failing))
        #expect(cut.statusCode == 500 && cut.bodyTruncated && cut.body.count == 4096)
        guard case .retry(let reason, _) = DeliveryOutcome(response: cut) else {
            Issue.record("a 500 counted as \(DeliveryOutcome(response: cut))")
            return
        }
        #expect(reason.hasPrefix("HTTP 500: eee") && reason.hasSuffix("…") && reason.count < 220, "got: \(reason)")
    }

    @Test("trickle, never reading, headers then a stall: the request ends at its 1.5 s deadline",
          arguments: [HostileCollector.Behaviour.trickle(interval: 0.4), .neverRead, .headersThenStall], Kind.allCases)
    func deadline(_ behaviour: HostileCollector.Behaviour, _ kind: Kind) async throws {
        let collector = try HostileCollector(behaviour, lifetime: 30)
        defer { collector.stop() }
        // A 2 MB body: more than the kernel buffers, so a collector that never reads stalls the upload.
        let request = Self.request(collector, bodyBytes: behaviour == .neverRead ? 2_000_000 : 200)
        let started = Date()
        var failure: TransportError?
        do {
            let response = try await kind.make(timeout: 1.5).send(request)
            Issue.record("got a response: \(response.statusCode), \(response.body.count) bytes")
        } catch {
            failure = error
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(failure == .timedOut(seconds: 1.5), "got \(String(describing: failure))")
        #expect(seconds >= 0.9 && seconds < 3, "ended after \(seconds) s (FoundationNetworking counts whole seconds)")
    }

    @Test("cancelling the caller's task ends the request at once, as cancelled", arguments: Kind.allCases)
    func cancellation(_ kind: Kind) async throws {
        let collector = try HostileCollector(.headersThenStall, lifetime: 30)
        defer { collector.stop() }
        let transport = kind.make(timeout: 20)
        let request = Self.request(collector)
        let started = Date()
        let task = Task { () -> TransportError? in
            do throws(TransportError) {
                _ = try await transport.send(request)
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        let failure = await task.value
        #expect(failure == .cancelled, "got \(String(describing: failure))")
        #expect(Date().timeIntervalSince(started) < 2)
    }
}
