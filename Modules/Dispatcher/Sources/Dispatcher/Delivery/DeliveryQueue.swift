import Foundation

/// The store as the delivery loop sees it: claim a page of due events, then settle each one.
///
/// ``EventStore`` is the real one (SQLite); tests may use an in-memory one. Every method is
/// called by one destination's delivery loop, on its task or on the task that overlaps its
/// request (``OverlappedQueueWork``), never concurrently for one queue.
package protocol DeliveryQueue: Sendable {
    /// Marks up to `limit` pending events that are due at `now` (and fit `maxBytes` together,
    /// always at least one) as in flight and returns them, oldest first.
    func claimBatch(limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent]

    /// Removes acknowledged events, in one transaction.
    func acknowledge(_ ids: [UUID]) throws

    /// ``acknowledge(_:)`` then ``claimBatch(limit:maxBytes:now:)``, as one step: when it
    /// throws, neither happened.
    func acknowledge(_ ids: [UUID], thenClaim limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent]

    /// Returns in-flight events to pending, counting an attempt and keeping the error, with
    /// their next attempt not before `nextAttemptAt`.
    func scheduleRetry(_ ids: [UUID], nextAttemptAt: Date, error: String) throws

    /// Moves events to the rejected state (kept, counted, visible), counting an attempt.
    func reject(_ ids: [UUID], reason: String) throws

    /// Returns in-flight events to pending without counting an attempt (after a crash, or when
    /// a batch is split and re-queued).
    func release(_ ids: [UUID]) throws

    /// Moves every pending next-attempt time later than `latest` back to `latest` (a retry
    /// scheduled while the clock was ahead), and returns the earliest next-attempt time among
    /// the pending events not due at `now`; nil when none waits. Called when a claim finds
    /// nothing due.
    func capRetryTimes(notAfter latest: Date, now: Date) throws -> Date?

    /// Records that the collector asked, with `Retry-After`, to be sent nothing before `date`,
    /// so that a later run honours it too. Called after such an answer.
    func deferDeliveries(until date: Date) throws

    /// The time last recorded by ``deferDeliveries(until:)``; nil when none was.
    func deferredUntil() throws -> Date?

    /// Records that the collector at `endpoint` (a ``CompressingDestination/endpointIdentity``)
    /// refused compressed bodies, so that a later run sends it plain ones. Called after such an
    /// answer; a later call for another endpoint replaces it.
    func rememberPlainBodies(for endpoint: String) throws

    /// Whether ``rememberPlainBodies(for:)`` was last called for `endpoint`.
    func sendsPlainBodies(to endpoint: String) throws -> Bool
}

extension DeliveryQueue {
    /// Caps nothing and reports no waiting event: a queue without next-attempt times to correct.
    package func capRetryTimes(notAfter latest: Date, now: Date) throws -> Date? { nil }

    /// Keeps nothing: a ``DeliveryWorker`` remembers the collector's `Retry-After` for its own life.
    package func deferDeliveries(until date: Date) throws {}

    /// None recorded.
    package func deferredUntil() throws -> Date? { nil }

    /// Keeps nothing: a ``DeliveryWorker`` remembers a refusal of compression for its own life.
    package func rememberPlainBodies(for endpoint: String) throws {}

    /// None recorded.
    package func sendsPlainBodies(to endpoint: String) throws -> Bool { false }
}
