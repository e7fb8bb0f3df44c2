import Foundation
import Tracking

/// The remembered ids and contents behind a `DuplicateDetector` (``RecentEvents``, at most
/// `capacity` of each, the oldest forgotten first), locked, and the flags and diagnostics of
/// the duplicates it finds.
final class DuplicateMemory: Sendable {
    private let diagnostics: Diagnostics?
    private let recent: LockedValue<RecentEvents>
    /// Keys whose values a reported duplicate's message masks.
    private let sensitiveKeys: SensitiveKeyMatcher

    init(capacity: Int, diagnostics: Diagnostics?, sensitiveKeys: SensitiveKeyMatcher = SensitiveKeyMatcher([String]())) {
        self.diagnostics = diagnostics
        self.sensitiveKeys = sensitiveKeys
        recent = LockedValue(RecentEvents(capacity: capacity))
    }

    /// Flags `event` `duplicate_id` when its id was seen, and `duplicate` when its content
    /// repeats one first seen less than `window` seconds earlier; reports each flag.
    func check(_ event: inout TrackedEvent, window: TimeInterval) {
        let (repeatedID, earlier) = lookUp(event, window: window)
        guard repeatedID || earlier != nil else { return }
        let original = event
        if repeatedID { flag(&event, EventFlag(code: "duplicate_id", detail: EventID.text(event.id)), original: original) }
        if let earlier { flag(&event, EventFlag(code: "duplicate", detail: earlier), original: original) }
    }

    /// What ``RecentEvents/check(_:fingerprint:window:)`` finds for `event`, which is borrowed
    /// (the caller's `inout` event captured by the locked closure would be copied).
    private func lookUp(_ event: TrackedEvent, window: TimeInterval) -> (repeatedID: Bool, earlier: String?) {
        // Identify calls are exempt from the content check; the fingerprint is taken outside the lock.
        // An earlier walk's member sums (the contract validator's) serve when the userData is unchanged since.
        let fingerprint: ContentFingerprint? = if event.kind == .identify {
            nil
        } else if let digest = event.userDataDigest {
            ContentHash.fingerprint(category: event.category, name: event.name, action: event.action,
                                    count: event.userData.count, memberSums: digest.memberSums)
        } else {
            ContentHash.fingerprint(category: event.category, name: event.name, action: event.action, userData: event.userData)
        }
        return recent.withLock { $0.check(event, fingerprint: fingerprint, window: window) }
    }

    private func flag(_ event: inout TrackedEvent, _ flag: EventFlag, original: TrackedEvent) {
        event.flag(flag)
        diagnostics?.record(.validation, code: flag.code, text: .repeated(RepeatedEvent(original, detail: flag.detail ?? "", sensitiveKeys: sensitiveKeys)), eventID: event.id)
    }
}
