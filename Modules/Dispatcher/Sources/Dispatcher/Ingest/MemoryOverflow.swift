import Foundation
import Tracking

/// Events buffered in memory while the journal cannot take them (the store cannot be opened,
/// the journal's byte budget is full, the disk is full), bounded by count, oldest first.
///
/// While events are buffered or being moved out, new events queue behind them, so the journal
/// receives everything in the order it was sent. Nothing here blocks or throws.
final class MemoryOverflow: Sendable {
    private struct Contents: Sendable {
        var events: [EncodedEvent] = []
        /// How many events a move in progress took out (`nil` when no move is in progress).
        var moving: Int?
    }

    private let contents = LockedValue(Contents())
    /// The most events buffered at once.
    let capacity: Int

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Buffers `event`; `false` when full (the caller counts the refusal).
    func buffer(_ event: EncodedEvent) -> Bool {
        let capacity = self.capacity
        return contents.withLock {
            guard $0.events.count + ($0.moving ?? 0) < capacity else { return false }
            // Growing the buffer traps when the allocation fails (out of address space): refuse instead.
            if $0.events.count == $0.events.capacity,
               !ResourceLimit.canAllocate(Swift.max(16, $0.events.capacity * 2) * MemoryLayout<EncodedEvent>.stride) { return false }
            $0.events.append(event)
            return true
        }
    }

    /// Whether events are buffered or being moved out: new events must then queue here too.
    var isBuffering: Bool { contents.withLock { $0.moving != nil || !$0.events.isEmpty } }

    /// Takes every buffered event, oldest first, and marks a move in progress until ``finishMove(returning:)``.
    func beginMove() -> [EncodedEvent] {
        contents.withLock { contents in
            contents.moving = contents.events.count
            defer { contents.events.removeAll() }
            return contents.events
        }
    }

    /// Ends a move, putting back at the front what could not be moved.
    /// - Returns: how many events are buffered afterwards.
    @discardableResult
    func finishMove(returning unmoved: [EncodedEvent]) -> Int {
        contents.withLock {
            $0.events.insert(contentsOf: unmoved, at: 0)
            $0.moving = nil
            return $0.events.count
        }
    }

    /// Removes every buffered event (purge).
    func removeAll() { contents.withLock { $0.events.removeAll() } }

    /// Events buffered now, counting those a move in progress has not finished with.
    var count: Int { contents.withLock { $0.events.count + ($0.moving ?? 0) } }
}
