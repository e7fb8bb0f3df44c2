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
/// Memory is bounded: at most `capacity` recent contents and `capacity` ids are remembered,
/// the oldest forgotten first.
struct DuplicateDetector: EventProcessor {
    /// Seconds within which identical content counts as a duplicate.
    public let window: TimeInterval
    private let memory: DuplicateMemory

    /// Creates a detector.
    /// - Parameters:
    ///   - window: seconds within which identical content is a duplicate; 1 second by default.
    ///   - capacity: how many recent events are remembered.
    ///   - diagnostics: where duplicates are reported, when given.
    public init(window: TimeInterval = 1, capacity: Int = 1000, diagnostics: Diagnostics? = nil) {
        self.window = window
        self.memory = DuplicateMemory(capacity: max(1, capacity), diagnostics: diagnostics)
    }

    /// Flags the event if it is a duplicate; never returns `nil`.
    public func process(_ event: TrackedEvent) -> TrackedEvent? {
        var result = event
        for flag in memory.check(event, window: window) { result.flag(flag) }
        return result
    }
}

/// The remembered ids and contents behind a ``DuplicateDetector``.
private final class DuplicateMemory: @unchecked Sendable {
    private struct Content: Hashable {
        let category: String
        let name: String
        let action: String
        let userData: UserData
    }

    // Safe: every mutable property is only touched while holding `lock`.
    private let lock = NSLock()
    private let capacity: Int
    private let diagnostics: Diagnostics?
    private var seenIDs: Set<UUID> = []
    private var idOrder: [UUID] = []
    private var idStart = 0
    private var contents: [Content: (id: UUID, timestamp: Date)] = [:]
    private var contentOrder: [Content] = []
    private var contentStart = 0

    init(capacity: Int, diagnostics: Diagnostics?) {
        self.capacity = capacity
        self.diagnostics = diagnostics
    }

    func check(_ event: TrackedEvent, window: TimeInterval) -> [EventFlag] {
        let content = Content(category: event.category, name: event.name, action: event.action, userData: event.userData)
        var flags: [EventFlag] = []
        lock.withLock {
            if seenIDs.contains(event.id) {
                flags.append(EventFlag(code: "duplicate_id", detail: event.id.uuidString.lowercased()))
            } else {
                remember(event.id)
            }
            guard event.kind != .identify else { return }
            let earlier = contents[content]
            if let earlier, earlier.id != event.id, abs(event.timestamp.timeIntervalSince(earlier.timestamp)) < window {
                flags.append(EventFlag(code: "duplicate", detail: earlier.id.uuidString.lowercased()))
            } else if earlier?.id != event.id {
                remember(content, id: event.id, timestamp: event.timestamp, isNew: earlier == nil)
            }
        }
        if let diagnostics {
            for flag in flags {
                diagnostics.record(.validation, code: flag.code, message: "\(event) repeats \(flag.detail ?? "")", eventID: event.id)
            }
        }
        return flags
    }

    private func remember(_ id: UUID) {
        seenIDs.insert(id)
        idOrder.append(id)
        if seenIDs.count > capacity {
            seenIDs.remove(idOrder[idStart])
            idStart += 1
        }
        if idStart > capacity {
            idOrder.removeFirst(idStart)
            idStart = 0
        }
    }

    private func remember(_ content: Content, id: UUID, timestamp: Date, isNew: Bool) {
        contents[content] = (id, timestamp)
        if isNew { contentOrder.append(content) }
        while contents.count > capacity, contentStart < contentOrder.count {
            contents.removeValue(forKey: contentOrder[contentStart])
            contentStart += 1
        }
        if contentStart > capacity {
            contentOrder.removeFirst(contentStart)
            contentStart = 0
        }
    }
}
