import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import TestSupport
import Tracking

/// A feature whose events need no consent.
enum Shop: EventType {
    enum Name: String, Sendable { case view, pay, signup }
    enum Action: String, Sendable { case open, tap }
    static let category = "Shop"
}

/// A feature whose events wait for consent when the configuration lists `Promo`.
enum Promo: EventType {
    enum Name: String, Sendable { case shown }
    enum Action: String, Sendable { case banner }
    static let category = "Promo"
}

/// The write key of every Segment configuration in these tests.
let testWriteKey = "sk-test-4f1d9c2b-never-print-me"

/// A configuration on a fresh store in `directory`, made fast and deterministic: no timer, no
/// automatic triggers, no retry wait, no lifecycle notifications (other suites post them), and
/// no diagnostics sent as events (so the events counted are the test's own; the diagnostics
/// tests turn it on).
func fastConfiguration(
    _ directory: TemporaryDirectory, destination: AnalyticsConfiguration.DestinationSettings = .none,
    store: String = "events.sqlite"
) -> AnalyticsConfiguration {
    var configuration = AnalyticsConfiguration(storePath: directory.file(store).path, destination: destination)
    configuration.batch.flushInterval = 0
    configuration.strategies = []
    configuration.retry.baseDelay = 0
    configuration.retry.maxDelay = 0
    configuration.lifecycle.observeNotifications = false
    configuration.diagnostics.trackAsEvents = false
    return configuration
}

/// Segment's batch API on `server`, with the test write key.
func segment(_ server: LoopbackHTTPServer, authentication: SegmentAuthentication = .basic) -> AnalyticsConfiguration.DestinationSettings {
    .segment(endpoint: server.baseURL, writeKey: testWriteKey, authentication: authentication)
}

/// Waits until `condition` holds or `timeout` seconds pass; returns whether it held.
func eventually(timeout: TimeInterval = 15, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return try condition()
}

/// Waits until `count` events sent are in the SQLite store, without triggering a delivery
/// (`drain` and `flush` deliver).
func persisted(_ analytics: Analytics, _ count: Int) async -> Bool {
    await eventually { analytics.counters.persisted >= count }
}

/// Sleeps `seconds` (for checks that something does NOT happen).
func pause(_ seconds: TimeInterval) async {
    try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
}

/// A request body parsed as a JSON object.
func jsonObject(_ data: Data) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}

/// The events of every Segment batch request `server` received, in order.
func segmentEvents(_ server: LoopbackHTTPServer) -> [[String: Any]] {
    server.requests.filter { $0.path == "/v1/batch" }.flatMap { jsonObject($0.body)["batch"] as? [[String: Any]] ?? [] }
}

/// The messageIds `server` received in Segment batches, in order.
func segmentMessageIDs(_ server: LoopbackHTTPServer) -> [String] {
    segmentEvents(server).compactMap { $0["messageId"] as? String }
}

/// The events of every Snowplow request `server` received, in order.
func snowplowEvents(_ server: LoopbackHTTPServer) -> [[String: Any]] {
    server.requests.filter { $0.path == "/com.snowplowanalytics.snowplow/tp2" }
        .flatMap { jsonObject($0.body)["data"] as? [[String: Any]] ?? [] }
}

/// The lowercase text of an event id, as destinations send it.
func text(_ id: UUID) -> String { id.uuidString.lowercased() }

/// Writes `text` to `name` in `directory` and returns the file.
@discardableResult
func write(_ text: String, to name: String, in directory: TemporaryDirectory) throws -> URL {
    let url = directory.file(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url
}

extension UserDataValue {
    /// The members, when this is an object.
    var members: UserData? { if case .object(let value) = self { value } else { nil } }
}
