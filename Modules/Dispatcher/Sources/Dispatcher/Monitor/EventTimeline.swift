import Foundation

/// The delivery timeline of each event of the current session, bounded in memory.
///
/// Recording is O(1) per batch, with no hashing: each call appends one entry, a step and the
/// ids it applies to, to a ring. Looking events up (the monitor, a few tests) scans the ring once
/// per call, whatever the number of events looked up.
///
/// Keeps the timelines of the most recent ``capacity`` events, counted by their
/// ``TimelineStep/Kind/persisted`` step (the step that starts an event's timeline in this
/// session); older timelines are forgotten (their rows and counters stay in the store). An
/// entry is dropped once every event it names was persisted before that window. Events with no
/// persisted step in this session (recovered from an earlier one) keep their steps while the
/// entries naming them stay. The ring never holds more than ``maximumStepsPerEvent`` × capacity
/// ids: past that, the oldest entries go first, whatever the window (retries that never end).
final class EventTimeline: @unchecked Sendable {
    /// One recorded step and the events it applies to.
    private struct Entry {
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

    // Safe: `entries`, `head`, `persistedCount` and `heldIDs` are only touched while holding `lock`.
    private let lock = NSLock()
    private var entries: [Entry] = []
    /// The index of the oldest live entry in `entries` (those before it are dropped).
    private var head = 0
    /// How many events were persisted in this session: the next persisted event's ordinal.
    private var persistedCount = 0
    /// How many ids the live entries hold.
    private var heldIDs = 0
    /// How many events' timelines are kept.
    let capacity: Int

    /// Creates a timeline keeping up to `capacity` events.
    init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// Appends one step to each of `ids`, as one entry.
    func record(_ step: TimelineStep, for ids: [UUID]) {
        guard !ids.isEmpty else { return }
        lock.withLock {
            var entry = Entry(step: step, ids: ids, firstOrdinal: nil, horizon: persistedCount)
            if step.kind == .persisted {
                entry.firstOrdinal = persistedCount
                persistedCount += ids.count
                entry.horizon = persistedCount
            }
            entries.append(entry)
            heldIDs += ids.count
            dropForgotten()
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
        lock.withLock {
            var timelines: [UUID: [TimelineStep]] = [:]
            var forgotten: Set<UUID> = []
            for entry in entries[head...] {
                for (position, id) in entry.ids.enumerated() where included(id) {
                    if let first = entry.firstOrdinal, !isKept(ordinal: first + position) {
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
        lock.withLock {
            entries.removeAll()
            head = 0
            heldIDs = 0
        }
    }

    /// Whether the event persisted with `ordinal` is among the most recent ``capacity``.
    private func isKept(ordinal: Int) -> Bool { ordinal >= persistedCount - capacity }

    /// Drops the oldest entries while they name only forgotten events or the ring holds too
    /// many ids, and compacts the storage once half of it is dropped. Called holding `lock`.
    private func dropForgotten() {
        let limit = capacity * Self.maximumStepsPerEvent
        while head < entries.count,
              entries[head].horizon <= persistedCount - capacity || heldIDs > limit {
            heldIDs -= entries[head].ids.count
            entries[head] = Entry(step: entries[head].step, ids: [], firstOrdinal: nil, horizon: 0)
            head += 1
        }
        if head > 32, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
