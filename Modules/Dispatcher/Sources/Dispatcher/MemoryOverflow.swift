import Foundation

/// Events held in memory while the store cannot be opened, bounded by count.
///
/// What does not fit is counted as dropped; nothing here blocks or throws.
final class MemoryOverflow: @unchecked Sendable {
    // Safe: `events` and `droppedCount` are only touched while holding `lock`.
    private let lock = NSLock()
    private var events: [EncodedEvent] = []
    private var droppedCount = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Holds `event`; `false` when full (the event is counted as dropped).
    func hold(_ event: EncodedEvent) -> Bool {
        lock.withLock {
            guard events.count < capacity else {
                droppedCount += 1
                return false
            }
            events.append(event)
            return true
        }
    }

    /// Takes every held event, oldest first.
    func takeAll() -> [EncodedEvent] {
        lock.withLock {
            defer { events.removeAll() }
            return events
        }
    }

    /// Puts events back at the front (when handing them over failed part-way).
    func putBack(_ returned: [EncodedEvent]) {
        lock.withLock { events.insert(contentsOf: returned, at: 0) }
    }

    /// Events held now.
    var count: Int { lock.withLock { events.count } }

    /// Events refused because the buffer was full.
    var dropped: Int { lock.withLock { droppedCount } }
}
