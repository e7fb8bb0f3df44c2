import Foundation
import Tracking

/// The ids and contents a `DuplicateMemory` remembers, as one value mutated in place (one
/// access per event, not one per table): at most `capacity` of each, the oldest forgotten
/// first. Ids are kept by ``SeenIDs``, contents by their 128-bit ``ContentFingerprint``,
/// filed under its first lane. Not thread-safe: its owner locks.
struct RecentEvents: Sendable {
    private var ids: SeenIDs
    /// One entry per fingerprint's first lane: the first event of the latest run with it.
    private var contents: IndexedRing<RememberedContent>

    /// Remembers nothing yet; holds at most `capacity` ids and `capacity` contents.
    init(capacity: Int) {
        ids = SeenIDs(capacity: capacity)
        contents = IndexedRing(capacity: capacity)
    }

    /// Whether `event`'s id was seen before (a new one is remembered), and, when `fingerprint`
    /// (of `event`'s content) is given, the text of the earlier event whose content it repeats
    /// within `window` seconds (see ``earlierID(of:fingerprint:window:)``).
    mutating func check(_ event: TrackedEvent, fingerprint: ContentFingerprint?, window: TimeInterval) -> (repeatedID: Bool, earlier: String?) {
        let repeatedID = ids.checkAndRemember(SeenID(event.id))
        guard let fingerprint else { return (repeatedID, nil) }
        return (repeatedID, earlierID(of: event, fingerprint: fingerprint, window: window))
    }

    /// The text of the earlier event `event` duplicates, or `nil` (then `event` is remembered
    /// when its content is new, or when the earlier one is outside the window).
    private mutating func earlierID(of event: TrackedEvent, fingerprint: ContentFingerprint, window: TimeInterval) -> String? {
        let remembered = RememberedContent(fingerprint: fingerprint, id: event.id, timestamp: event.timestamp)
        // One entry per first lane: any entry filed under it is the one.
        guard let position = contents.position(of: fingerprint.low, where: { _ in true }) else {
            contents.append(remembered, key: fingerprint.low)
            return nil
        }
        let earlier = contents[position]
        // Another content with the same first lane, or the same one outside the window: the
        // event starts a new run, in the place (and the order) of the one it replaces.
        guard earlier.fingerprint == fingerprint else {
            contents[position] = remembered
            return nil
        }
        guard earlier.id != event.id else { return nil }
        guard abs(event.timestamp.timeIntervalSince(earlier.timestamp)) < window else {
            contents[position] = remembered
            return nil
        }
        if let text = earlier.idText { return text }
        let text = EventID.text(earlier.id)
        contents[position].idText = text
        return text
    }
}
