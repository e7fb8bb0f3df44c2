import Foundation

/// Why someone asks the ``DeliveryScheduler`` for a delivery round; the scheduler's
/// ``DeliveryDemand`` decides from it whether one runs.
enum DeliveryRequest: Sendable, Equatable {
    /// The ingest writer committed this many events to the store (this run's sends).
    case committed(Int)
    /// The ingest writer replayed this many events an earlier run left in the journal, while the
    /// storage opened: counted like committed ones, never a round by itself.
    case replayed(Int)
    /// The storage opened with this many events pending (the `boot` strategy).
    case opened(pending: Int)
    /// The flush interval passed, or a retry or `Retry-After` wait ended.
    case timer
    /// A lifecycle or reachability moment the host reported.
    case lifecycle(LifecycleEvent)
    /// A caller made this many events deliverable (requeued, released from a consent hold, or
    /// pending when it asked).
    case caller(events: Int)

    /// Whether the request reports events pending delivery (which arm the flush-interval timer).
    var reportsPendingEvents: Bool {
        switch self {
        case .committed(let count), .replayed(let count), .opened(pending: let count), .caller(events: let count): count > 0
        case .timer, .lifecycle: false
        }
    }
}
