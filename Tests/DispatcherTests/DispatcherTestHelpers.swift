@testable import Dispatcher
import Foundation
import TestSupport
import Tracking

/// A feature for Dispatcher tests.
enum Checkout: EventType {
    enum Name: String, Sendable { case pay, view }
    enum Action: String, Sendable { case tap, open }
}

/// The messageIds a loopback Segment collector received, in order (repeats included).
func segmentMessageIDs(_ server: LoopbackHTTPServer) -> [String] {
    server.requests.filter { $0.path == "/v1/batch" }.flatMap { request -> [String] in
        guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
              let batch = body["batch"] as? [[String: Any]] else { return [] }
        return batch.compactMap { $0["messageId"] as? String }
    }
}

/// Waits until `condition` holds or `timeout` seconds pass; returns whether it held.
func eventually(timeout: TimeInterval, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return condition()
}

/// A Dispatcher delivering to `server` in the Segment format, on a fresh store in `directory`.
func makeDispatcher(
    _ directory: TemporaryDirectory, server: LoopbackHTTPServer, batch: BatchConfiguration = BatchConfiguration(deliverySize: 50, flushInterval: 0),
    strategy: BatchDispatchStrategy = [], requestTimeout: TimeInterval = 5,
    onDiagnostic: (@Sendable (DispatcherDiagnostic) -> Void)? = nil
) throws -> Dispatcher {
    let destination = try SegmentDestination(
        endpoint: server.baseURL, writeKey: "secret-write-key", transport: URLSessionTransport(requestTimeout: requestTimeout))
    return try Dispatcher(configuration: DispatcherConfiguration(
        storePath: directory.file("store.sqlite").path, destination: destination, batch: batch, strategy: strategy,
        retryPolicy: RetryPolicy(baseDelay: 0.05, maxDelay: 0.2), onDiagnostic: onDiagnostic))
}
