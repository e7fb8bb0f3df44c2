import Tracking

/// An event that repeats an earlier one, held once by reference for the diagnostics issue
/// that reports it (whose message is written only when read).
final class RepeatedEvent: Sendable {
    /// The event as the detector saw it.
    let event: TrackedEvent
    /// The flag's detail: the earlier event's id, or the repeated id.
    let detail: String

    /// Holds `event` and `detail`.
    init(_ event: TrackedEvent, detail: String) {
        self.event = event
        self.detail = detail
    }

    /// `"<event> repeats <detail>"`.
    var message: String { "\(event) repeats \(detail)" }
}
