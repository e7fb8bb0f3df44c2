import Foundation

/// The delivery timeline of each event of the current session, bounded in memory.
///
/// Keeps the most recent ``capacity`` events; older timelines are forgotten (their rows and
/// counters stay in the store).
final class EventTimeline: @unchecked Sendable {
    // Safe: `timelines`, `order` and `orderStart` are only touched while holding `lock`.
    private let lock = NSLock()
    private var timelines: [UUID: [TimelineStep]] = [:]
    private var order: [UUID] = []
    private var orderStart = 0
    /// How many events' timelines are kept.
    let capacity: Int

    /// Creates a timeline keeping up to `capacity` events.
    init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// Appends one step to each of `ids`.
    func record(_ step: TimelineStep, for ids: some Sequence<UUID>) {
        lock.withLock {
            for id in ids {
                if timelines[id] == nil {
                    order.append(id)
                    if order.count - orderStart > capacity {
                        timelines[order[orderStart]] = nil
                        orderStart += 1
                        if orderStart > capacity {
                            order.removeFirst(orderStart)
                            orderStart = 0
                        }
                    }
                }
                timelines[id, default: []].append(step)
            }
        }
    }

    /// The steps of one event, oldest first; empty when unknown or forgotten.
    func steps(of id: UUID) -> [TimelineStep] { lock.withLock { timelines[id] ?? [] } }

    /// Every known timeline.
    func all() -> [UUID: [TimelineStep]] { lock.withLock { timelines } }

    /// Forgets everything (purge).
    func removeAll() {
        lock.withLock {
            timelines.removeAll()
            order.removeAll()
            orderStart = 0
        }
    }
}
