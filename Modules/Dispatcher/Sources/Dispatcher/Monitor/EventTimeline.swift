import Foundation
import Tracking

/// The delivery timeline of each event of the current session, bounded in memory.
///
/// Recording appends one entry per batch to a ring (O(1), no hashing); lookups scan the ring.
/// Keeps the timelines of the most recent ``capacity`` events counted by their
/// ``TimelineStep/Kind/persisted`` step; an entry is dropped once every event it names is older
/// than that. Events recovered from an earlier session keep their steps while entries name them.
/// The ring holds at most ``maximumStepsPerEvent`` × capacity ids: past that the oldest go first.
final class EventTimeline: Sendable {
    /// One recorded step and the events it applies to.
    fileprivate struct Entry {
        /// What happened.
        var step: TimelineStep
        /// The events, in the order recorded.
        var ids: [UUID]
        /// For a persisted step, the persisted-event ordinal of `ids[0]`; nil for other steps.
        var firstOrdinal: Int?
        /// How many events had been persisted when this entry was recorded: every event it names
        /// that was persisted in this session has an ordinal below this.
        var horizon: Int
    }

    /// How many ids the ring holds at most, per event of ``capacity``.
    static let maximumStepsPerEvent = 8

    /// The ring and its counts.
    fileprivate struct Ring {
        var entries: [Entry] = []
        /// The index of the oldest live entry in `entries` (those before it are dropped).
        var head = 0
        /// How many events were persisted in this session: the next persisted event's ordinal.
        var persistedCount = 0
        /// How many ids the live entries hold.
        var heldIDs = 0
    }

    private let ring = LockedValue(Ring())
    /// How many events' timelines are kept.
    let capacity: Int

    /// Creates a timeline keeping up to `capacity` events.
    init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// Appends one step to each of `ids`, as one entry.
    func record(_ step: TimelineStep, for ids: [UUID]) {
        guard !ids.isEmpty else { return }
        let capacity = capacity
        ring.withLock { ring in
            var entry = Entry(step: step, ids: ids, firstOrdinal: nil, horizon: ring.persistedCount)
            if step.kind == .persisted {
                entry.firstOrdinal = ring.persistedCount
                ring.persistedCount += ids.count
                entry.horizon = ring.persistedCount
            }
            ring.entries.append(entry)
            ring.heldIDs += ids.count
            ring.dropForgotten(capacity: capacity)
        }
    }

    /// The steps of one event, oldest first; empty when unknown or forgotten.
    func steps(of id: UUID) -> [TimelineStep] { timelines { $0 == id }[id] ?? [] }

    /// The timelines of `ids` that are known, in one pass over the entries.
    func steps(of ids: Set<UUID>) -> [UUID: [TimelineStep]] { timelines { ids.contains($0) } }

    /// Every known timeline.
    func all() -> [UUID: [TimelineStep]] { timelines { _ in true } }

    /// The known timelines of the ids `included` selects: a forgotten event has none.
    private func timelines(of included: (UUID) -> Bool) -> [UUID: [TimelineStep]] {
        let capacity = capacity
        return ring.withLock { ring in
            var timelines: [UUID: [TimelineStep]] = [:]
            var forgotten: Set<UUID> = []
            for entry in ring.entries[ring.head...] {
                for (position, id) in entry.ids.enumerated() where included(id) {
                    if let first = entry.firstOrdinal, !ring.isKept(ordinal: first + position, capacity: capacity) {
                        forgotten.insert(id)
                    } else {
                        timelines[id, default: []].append(entry.step)
                    }
                }
            }
            for id in forgotten { timelines[id] = nil }
            return timelines
        }
    }

    /// Forgets everything (purge).
    func removeAll() {
        ring.withLock { ring in
            ring.entries.removeAll()
            ring.head = 0
            ring.heldIDs = 0
        }
    }
}

extension EventTimeline.Ring {
    /// Whether the event persisted with `ordinal` is among the most recent `capacity`.
    func isKept(ordinal: Int, capacity: Int) -> Bool { ordinal >= persistedCount - capacity }

    /// Drops the oldest entries while they name only forgotten events or the ring holds too
    /// many ids, and compacts the storage once half of it is dropped.
    mutating func dropForgotten(capacity: Int) {
        let limit = capacity * EventTimeline.maximumStepsPerEvent
        while head < entries.count,
              entries[head].horizon <= persistedCount - capacity || heldIDs > limit {
            heldIDs -= entries[head].ids.count
            entries[head] = EventTimeline.Entry(step: entries[head].step, ids: [], firstOrdinal: nil, horizon: 0)
            head += 1
        }
        if head > 32, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
