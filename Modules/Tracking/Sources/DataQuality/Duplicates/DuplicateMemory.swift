import Foundation
import Tracking

/// The remembered ids and contents behind a `DuplicateDetector`: at most `capacity` of each,
/// the oldest forgotten first. Contents are looked up by their ``ContentHash`` and compared in
/// full only when the hash matches.
final class DuplicateMemory: @unchecked Sendable {
    /// The content of an event, as compared for duplicates.
    private struct Content: Equatable {
        let category: String
        let name: String
        let action: String
        let userData: UserData
    }

    /// The first event of a run of identical contents.
    private struct Remembered {
        let content: Content
        let id: UUID
        let timestamp: Date
        /// The id as text, written the first time a duplicate names it.
        var idText: String?
    }

    // Safe: every mutable property is only touched while holding `lock`.
    private let lock = NSLock()
    private let diagnostics: Diagnostics?
    private var seenIDs: Set<SeenID> = []
    private var idOrder: Ring<SeenID>
    private var contents: [UInt64: Remembered] = [:]
    private var contentOrder: Ring<UInt64>

    init(capacity: Int, diagnostics: Diagnostics?) {
        self.diagnostics = diagnostics
        idOrder = Ring(capacity: capacity)
        contentOrder = Ring(capacity: capacity)
    }

    /// Flags `event` `duplicate_id` when its id was seen, and `duplicate` when its content
    /// repeats one first seen less than `window` seconds earlier; reports each flag.
    func check(_ event: inout TrackedEvent, window: TimeInterval) {
        let checksContent = event.kind != .identify
        let hash = checksContent ? ContentHash.of(category: event.category, name: event.name, action: event.action, userData: event.userData) : 0
        let (repeatedID, earlier): (Bool, String?) = lock.withLock {
            let seen = SeenID(event.id)
            let repeatedID = !seenIDs.insert(seen).inserted
            if !repeatedID, let forgotten = idOrder.append(seen) { seenIDs.remove(forgotten) }
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
        let content = Content(category: event.category, name: event.name, action: event.action, userData: event.userData)
        if var earlier = contents[hash], earlier.content == content {
            guard earlier.id != event.id else { return nil }
            guard abs(event.timestamp.timeIntervalSince(earlier.timestamp)) < window else {
                contents[hash] = Remembered(content: content, id: event.id, timestamp: event.timestamp)
                return nil
            }
            if let text = earlier.idText { return text }
            let text = EventID.text(earlier.id)
            earlier.idText = text
            contents[hash] = earlier
            return text
        }
        let isNew = contents.updateValue(Remembered(content: content, id: event.id, timestamp: event.timestamp), forKey: hash) == nil
        if isNew, let forgotten = contentOrder.append(hash) { contents.removeValue(forKey: forgotten) }
        return nil
    }

    private func flag(_ event: inout TrackedEvent, _ flag: EventFlag, original: TrackedEvent) {
        event.flag(flag)
        diagnostics?.record(.validation, code: flag.code, text: .repeated(RepeatedEvent(original, detail: flag.detail ?? "")), eventID: event.id)
    }
}
