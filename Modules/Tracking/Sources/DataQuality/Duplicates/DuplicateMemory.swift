import Foundation
import Tracking

/// The remembered ids and contents behind a `DuplicateDetector`: at most `capacity` of each,
/// the oldest forgotten first. Both are kept in ``IndexedRing``s: ids filed under their random
/// half, contents under their ``ContentHash`` and compared in full only when the hash matches.
final class DuplicateMemory: @unchecked Sendable {
    // Safe: every mutable property is only touched while holding `lock`.
    private let lock = NSLock()
    private let diagnostics: Diagnostics?
    private var ids: IndexedRing<SeenID>
    /// One entry per content hash: the first event of the latest run with that hash.
    private var contents: IndexedRing<RememberedContent>

    init(capacity: Int, diagnostics: Diagnostics?) {
        self.diagnostics = diagnostics
        ids = IndexedRing(capacity: capacity)
        contents = IndexedRing(capacity: capacity)
    }

    /// Flags `event` `duplicate_id` when its id was seen, and `duplicate` when its content
    /// repeats one first seen less than `window` seconds earlier; reports each flag.
    func check(_ event: inout TrackedEvent, window: TimeInterval) {
        let checksContent = event.kind != .identify
        let hash = checksContent ? ContentHash.of(category: event.category, name: event.name, action: event.action, userData: event.userData) : 0
        let (repeatedID, earlier): (Bool, String?) = lock.withLock {
            let seen = SeenID(event.id)
            let repeatedID = ids.position(of: seen.key, where: { $0 == seen }) != nil
            if !repeatedID { ids.append(seen, key: seen.key) }
            guard checksContent else { return (repeatedID, nil) }
            return (repeatedID, earlierID(of: event, hash: hash, window: window))
        }
        guard repeatedID || earlier != nil else { return }
        let original = event
        if repeatedID { flag(&event, EventFlag(code: "duplicate_id", detail: EventID.text(event.id)), original: original) }
        if let earlier { flag(&event, EventFlag(code: "duplicate", detail: earlier), original: original) }
    }

    /// The text of the earlier event `event` duplicates, or `nil` (then `event` is remembered
    /// when its content is new, or when the earlier one is outside the window). Call holding `lock`.
    private func earlierID(of event: TrackedEvent, hash: UInt64, window: TimeInterval) -> String? {
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

    private func flag(_ event: inout TrackedEvent, _ flag: EventFlag, original: TrackedEvent) {
        event.flag(flag)
        diagnostics?.record(.validation, code: flag.code, text: .repeated(RepeatedEvent(original, detail: flag.detail ?? "")), eventID: event.id)
    }
}
