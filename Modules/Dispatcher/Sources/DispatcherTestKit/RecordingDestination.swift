import Dispatcher
import Foundation
import Tracking

/// A `Destination` for an app's tests: records every batch the Dispatcher hands
/// it and answers from a script, so a test runs real persistence and delivery without a
/// network and asserts on what was sent.
///
/// ```swift
/// let destination = RecordingDestination(results: [DeliveryResult(.retry(reason: "busy", retryAfter: nil))])
/// let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: path, destination: destination))
/// dispatcher.send(event)
/// _ = await dispatcher.flush()
/// #expect(try destination.sentEvents().map(\.id) == [event.id, event.id])
/// ```
/// When the script runs out, it answers ``defaultResult``.
public final class RecordingDestination: Destination {
    private struct State: Sendable {
        var script: [DeliveryResult]
        var batches: [[StoredEvent]] = []
    }

    private let state: LockedValue<State>
    /// The name reports and the timeline show.
    public let name: String
    /// The byte budget of one batch.
    public let maxBatchBytes: Int
    /// The answer once the script is used up.
    public let defaultResult: DeliveryResult

    /// Creates a destination that records.
    /// - Parameters:
    ///   - name: its name in reports. Defaults to `"recording"`.
    ///   - maxBatchBytes: the byte budget of one batch. Defaults to 512 KiB.
    ///   - results: answers for the first batches, in order.
    ///   - defaultResult: the answer after that. Defaults to `DeliveryResult.delivered`.
    public init(
        name: String = "recording", maxBatchBytes: Int = 512 * 1024,
        results: [DeliveryResult] = [], defaultResult: DeliveryResult = .delivered
    ) {
        self.name = name
        self.maxBatchBytes = maxBatchBytes
        self.defaultResult = defaultResult
        state = LockedValue(State(script: results))
    }

    /// Every batch handed over, in order, as the store's rows (status, attempts, id).
    public var batches: [[StoredEvent]] { state.withLock { $0.batches } }

    /// Every event of every batch, in the order handed over, decoded back to what was sent; an
    /// event retried appears once for each attempt.
    /// - Throws: when a row cannot be decoded.
    public func sentEvents() throws -> [TrackedEvent] {
        try batches.joined().map { try $0.trackedEvent() }
    }

    /// Adds answers to the end of the script.
    public func enqueue(_ results: DeliveryResult...) {
        state.withLock { $0.script.append(contentsOf: results) }
    }

    /// Records the batch and returns the next scripted answer.
    public func deliver(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult {
        state.withLock { state in
            state.batches.append(batch)
            return state.script.isEmpty ? defaultResult : state.script.removeFirst()
        }
    }
}
