import Foundation
import Tracking

/// The stage that flags duplicates, and still passes them on.
///
/// - Same content: an event with the same category, name, action and userData as one less than
///   ``window`` seconds earlier (by event timestamp) gets the flag `duplicate` whose detail is
///   the earlier event's id. The window is measured from the *first* event of a run of
///   identical ones, so a steady stream is not one endless duplicate. Identify calls
///   (``Tracking/EventKind/identify``) are exempt: the detector runs before hydration, so it
///   cannot tell which user an identify is for (two users logging in one after the other with
///   the same traits are not duplicates), and repeating an identify is harmless.
/// - Same id: an event whose id was seen before gets `duplicate_id` (the store also ignores a
///   repeated id).
///
/// "Same content" means the same 128-bit fingerprint of the canonical content: text compared by
/// its UTF-8 bytes, object members in any order, `0.0` and `-0.0` alike, `.int(2)` and
/// `.double(2)` apart, and a NaN equal to a NaN with the same bits. The detector keeps the
/// fingerprint, not the content. Two different contents take the same fingerprint with odds
/// of about `capacity` in 2¹²⁸ per event (about 3 × 10⁻³⁶ with 1,000 remembered): never, in
/// practice, for contents that were not crafted to collide (the hash is fast, not
/// cryptographic).
///
/// Memory is bounded: at most `capacity` recent fingerprints and `capacity` ids are
/// remembered, the oldest forgotten first; nothing remembered holds an event's data.
struct DuplicateDetector: EventProcessor {
    /// Seconds within which identical content counts as a duplicate.
    public let window: TimeInterval
    private let memory: DuplicateMemory

    /// Creates a detector.
    /// - Parameters:
    ///   - window: seconds within which identical content is a duplicate; 1 second by default.
    ///   - capacity: how many recent events are remembered.
    ///   - diagnostics: where duplicates are reported, when given.
    ///   - redactedFields: keys (any case) whose values, at any depth, a reported duplicate's
    ///     message shows as `(redacted)`: the detector runs before redaction.
    public init(window: TimeInterval = 1, capacity: Int = 1000, diagnostics: Diagnostics? = nil,
                redactedFields: some Sequence<String> = [String]()) {
        self.window = window
        self.memory = DuplicateMemory(capacity: max(1, capacity), diagnostics: diagnostics,
                                      sensitiveKeys: SensitiveKeyMatcher(redactedFields))
    }

    /// Flags the event if it is a duplicate; never stops it.
    public func process(_ event: inout TrackedEvent) -> Bool {
        memory.check(&event, window: window)
        return true
    }
}
