import Foundation

/// Events held in memory while the journal cannot take them (the store cannot be opened, the
/// journal's byte budget is full, the disk is full), bounded by count, oldest first.
///
/// While events are held or being moved out, new events queue behind them, so the journal
/// receives everything in the order it was sent. Nothing here blocks or throws.
final class MemoryOverflow: @unchecked Sendable {
    // Safe: `events` and `moving` are only touched while holding `lock`.
    private let lock = NSLock()
    private var events: [EncodedEvent] = []
    /// How many events a move in progress took out (`nil` when no move is in progress).
    private var moving: Int?
    let capacity: Int

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Holds `event`; `false` when full (the caller counts the refusal).
    func hold(_ event: EncodedEvent) -> Bool {
        lock.withLock {
            guard events.count + (moving ?? 0) < capacity else { return false }
            // Growing the buffer traps when the allocation fails (out of address space): refuse instead.
            if events.count == events.capacity,
               !ResourceLimit.canAllocate(Swift.max(16, events.capacity * 2) * MemoryLayout<EncodedEvent>.stride) { return false }
            events.append(event)
            return true
        }
    }

    /// Whether events are held or being moved out: new events must then queue here too.
    var isHolding: Bool { lock.withLock { moving != nil || !events.isEmpty } }

    /// Takes every held event, oldest first, and marks a move in progress until ``finishMove(returning:)``.
    func beginMove() -> [EncodedEvent] {
        lock.withLock {
            moving = events.count
            defer { events.removeAll() }
            return events
        }
    }

    /// Ends a move, putting back at the front what could not be moved.
    /// - Returns: how many events are held afterwards.
    @discardableResult
    func finishMove(returning unmoved: [EncodedEvent]) -> Int {
        lock.withLock {
            events.insert(contentsOf: unmoved, at: 0)
            moving = nil
            return events.count
        }
    }

    /// Removes every held event (purge).
    func removeAll() { lock.withLock { events.removeAll() } }

    /// Events held now, counting those a move in progress has not finished with.
    var count: Int { lock.withLock { events.count + (moving ?? 0) } }
}
