import Tracking

/// An event that repeats an earlier one, held once by reference for the diagnostics issue
/// that reports it (whose message is written only when read).
final class RepeatedEvent: Sendable {
    /// The event as the detector saw it (before redaction).
    let event: TrackedEvent
    /// The flag's detail: the earlier event's id, or the repeated id.
    let detail: String
    /// The sensitive keys, whose values the message never shows.
    private let sensitiveKeys: SensitiveKeyMatcher

    /// Holds `event` and `detail`; `sensitiveKeys`' values, at any depth, are masked in the message.
    init(_ event: TrackedEvent, detail: String, sensitiveKeys: SensitiveKeyMatcher = SensitiveKeyMatcher([String]())) {
        self.event = event
        self.detail = detail
        self.sensitiveKeys = sensitiveKeys
    }

    /// `"<event> repeats <detail>"`, the value of every sensitive key shown as `(redacted)`.
    var message: String {
        var shown = event
        if case .object(let masked) = sensitiveKeys.masking(.object(event.userData)) { shown.userData = masked }
        return "\(shown) repeats \(detail)"
    }
}
