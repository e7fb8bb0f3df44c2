import Foundation
import Tracking

/// The ids and contents a `DuplicateMemory` remembers, as one value mutated in place (one
/// access per event, not one per table): at most `capacity` of each, the oldest forgotten
/// first. Ids are kept by ``SeenIDs``, contents filed under their ``ContentHash`` and
/// compared in full only when the hash matches. Not thread-safe: its owner locks.
struct RecentEvents: Sendable {
    private var ids: SeenIDs
    /// One entry per content hash: the first event of the latest run with that hash.
    private var contents: IndexedRing<RememberedContent>

    /// Remembers nothing yet; holds at most `capacity` ids and `capacity` contents.
    init(capacity: Int) {
        ids = SeenIDs(capacity: capacity)
        contents = IndexedRing(capacity: capacity)
    }

    /// Whether `event`'s id was seen before (a new one is remembered), and, when `contentHash`
    /// is given, the text of the earlier event whose content it repeats within `window`
    /// seconds (see ``earlierID(of:hash:window:)``).
    mutating func check(_ event: TrackedEvent, contentHash: UInt64?, window: TimeInterval) -> (repeatedID: Bool, earlier: String?) {
        let repeatedID = ids.checkAndRemember(SeenID(event.id))
        guard let contentHash else { return (repeatedID, nil) }
        return (repeatedID, earlierID(of: event, hash: contentHash, window: window))
    }

    /// The text of the earlier event `event` duplicates, or `nil` (then `event` is remembered
    /// when its content is new, or when the earlier one is outside the window).
    private mutating func earlierID(of event: TrackedEvent, hash: UInt64, window: TimeInterval) -> String? {
        // One entry per hash: any entry filed under it is the one.
        guard let position = contents.position(of: hash, where: { _ in true }) else {
            contents.append(RememberedContent(event), key: hash)
            return nil
        }
        let earlier = contents[position]
        // Another content with the same hash, or the same one outside the window: the event
        // starts a new run, in the place (and the order) of the one it replaces.
        guard earlier.hasContent(of: event) else {
            contents[position] = RememberedContent(event)
            return nil
        }
        guard earlier.id != event.id else { return nil }
        guard abs(event.timestamp.timeIntervalSince(earlier.timestamp)) < window else {
            contents[position] = RememberedContent(event)
            return nil
        }
        if let text = earlier.idText { return text }
        let text = EventID.text(earlier.id)
        contents[position].idText = text
        return text
    }
}
