import Foundation
import Tracking

/// The remembered ids and contents behind a `DuplicateDetector`.
final class DuplicateMemory: @unchecked Sendable {
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
