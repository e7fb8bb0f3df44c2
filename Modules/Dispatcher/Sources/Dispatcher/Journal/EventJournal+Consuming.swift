import Foundation
import Tracking

// Consuming: reading, waiting and discarding from the one consumer thread; the page work it
// hands to its own queue.
extension EventJournal {
    /// What ``read(from:maxRecords:)`` found.
    struct Batch: Sendable {
        /// The events, in append order.
        var events: [EncodedEvent]
        /// Where the next read starts (after these events).
        var next: JournalPosition
        /// Whether reading stopped at damage it could not step over (the rest of that segment is ignored).
        var skippedDamage: Bool
    }

    /// What ``readBorrowed(from:maxRecords:)`` found: events borrowed from the segments' mappings.
    ///
    /// The batch keeps the segments it read alive, so the events stay readable while it exists;
    /// it must be used up before those segments are discarded (``discard(before:includingLast:)``
    /// recycles consumed files, and their new records would replace the bytes borrowed).
    struct BorrowedBatch {
        /// The events, in append order.
        var events: [BorrowedEvent]
        /// Where the next read starts (after these events).
        var next: JournalPosition
        /// Whether reading stopped at damage it could not step over (the rest of that segment is ignored).
        var skippedDamage: Bool
        /// The segments the events are borrowed from.
        var segments: [JournalSegment]
        /// How far the read went in each segment, for ``noteStored(_:)`` once the events are stored.
        var marks: [JournalReadMark]
    }

    /// Reads up to `maxRecords` events after `position`, moving across segments. Never blocks
    /// appends for longer than taking a snapshot.
    func read(from position: JournalPosition, maxRecords: Int) -> Batch {
        var events: [EncodedEvent] = []
        let (next, damaged, marks) = readSegments(from: position, maxRecords: maxRecords) { segment, offset, end, remaining in
            let result = segment.read(from: offset, to: end, maxRecords: remaining)
            events.append(contentsOf: result.events)
            return (result.events.count, result.next, result.damaged)
        }
        noteStored(marks) // copies: a later cut cannot touch them
        return Batch(events: events, next: next, skippedDamage: damaged)
    }

    /// Reads up to `maxRecords` events after `position` like ``read(from:maxRecords:)``, without
    /// copying them: each event's fields point into its segment's mapping (see ``BorrowedBatch``).
    /// Consumer only.
    func readBorrowed(from position: JournalPosition, maxRecords: Int) -> BorrowedBatch {
        var events: [BorrowedEvent] = []
        events.reserveCapacity(min(maxRecords, 4_096))
        var touched: [JournalSegment] = []
        let (next, damaged, marks) = readSegments(from: position, maxRecords: maxRecords) { segment, offset, end, remaining in
            touched.append(segment)
            let before = events.count
            let result = JournalRecord.readBorrowed(in: segment.base, from: max(offset, JournalSegment.headerSize), to: end,
                                                    framing: segment.framing, maxRecords: remaining,
                                                    contexts: &segment.readContexts) { events.append($0) }
            return (events.count - before, result.next, result.damaged)
        }
        return BorrowedBatch(events: events, next: next, skippedDamage: damaged, segments: touched, marks: marks)
    }

    /// Walks the segments from `position`, letting `readSegment` read each (the segment, the
    /// offset to start at, the end of its records, how many events may still be read; it returns
    /// how many it read, the offset after them and whether it stopped at damage) until
    /// `maxRecords` events are read or no more are available.
    /// - Returns: where the next read starts, whether a damaged record was skipped, and how far
    ///   each segment was read.
    private func readSegments(
        from position: JournalPosition, maxRecords: Int,
        readSegment: (JournalSegment, Int, Int, Int) -> (count: Int, next: Int, damaged: Bool)
    ) -> (next: JournalPosition, damaged: Bool, marks: [JournalReadMark]) {
        var cursor = position
        var count = 0
        var damaged = false
        var marks: [JournalReadMark] = []
        while count < maxRecords {
            let snapshot: (segment: JournalSegment, end: Int, sealed: Bool, sequence: UInt32)? = state.withLock { [cursor] state in
                guard let segment = state.segments.first(where: { $0.number >= cursor.segment }) else { return nil }
                return (segment, segment.end, segment.sealed, segment.nextSequence)
            }
            guard let (segment, end, sealed, sequence) = snapshot else { break }
            if segment.number > cursor.segment { cursor = JournalPosition(segment: segment.number, offset: JournalSegment.headerSize) }
            let result = readSegment(segment, cursor.offset, end, maxRecords - count)
            count += result.count
            cursor.offset = result.next
            marks.append(JournalReadMark(segment: segment, offset: result.next,
                                         sequence: result.next < end ? segment.sequence(at: result.next) : sequence))
            if result.damaged {
                damaged = true
                cursor.offset = end
            }
            guard cursor.offset >= end else { break }
            guard sealed else { break }
            // The segment is finished: continue in the next one, if any.
            let hasNext = state.withLock { $0.segments.contains { $0.number > segment.number } }
            guard hasNext else { break }
            cursor = JournalPosition(segment: segment.number + 1, offset: 0)
        }
        if cursor.offset == 0 {
            let first = state.withLock { [cursor] state in state.segments.first { $0.number >= cursor.segment }?.number }
            cursor = JournalPosition(segment: first ?? cursor.segment, offset: JournalSegment.headerSize)
        }
        return (cursor, damaged, marks)
    }

    /// Waits until records exist after `position` and have had ``lingerInterval`` to gather (or
    /// ``wakeThreshold`` of them are waiting), the timeout passes, or ``wakeConsumer()`` is called.
    /// - Parameter timeout: the longest wait; nil sleeps until a record or a wake-up, however long.
    /// - Returns: whether records are available.
    @discardableResult
    func waitForRecords(after position: JournalPosition, timeout: TimeInterval?) -> Bool {
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        state.withLock { $0.lingerBase = $0.appended }
        // Asleep until the first record: the append that writes it marks the consumer running and wakes it.
        while state.withLock({ $0.beginWait(as: .sleeping, if: !$0.hasRecords(after: position)) }) {
            guard state.wait(until: { $0.consumer != .sleeping || $0.wakeRequested || $0.isClosed }, deadline: deadline) else { break }
        }
        // Then linger, so that one group commit takes the records arriving meanwhile.
        let lingerEnd = min(deadline ?? .distantFuture, Date(timeIntervalSinceNow: lingerInterval))
        while state.withLock({ $0.beginWait(as: .lingering, if: $0.hasRecords(after: position) && !$0.manyWaiting()) }) {
            guard state.wait(until: { $0.consumer != .lingering || $0.wakeRequested || $0.isClosed }, deadline: lingerEnd) else { break }
        }
        return state.withLock { state in
            state.consumer = .running
            state.wakeRequested = false
            return state.hasRecords(after: position)
        }
    }

    /// Wakes a consumer blocked in ``waitForRecords(after:timeout:)``.
    func wakeConsumer() {
        state.withLockWakingWaiters { $0.wakeRequested = true }
    }

    /// Deletes the segments entirely before `position` (their events are safely in the store);
    /// up to ``maxFreeFiles`` of their files wait to be reused for the next segments instead.
    /// When `position` is at the end of the last segment and `includingLast` is set, that one goes too.
    func discard(before position: JournalPosition, includingLast: Bool = false) {
        let removed: [JournalSegment] = state.withLock { state in
            var removed: [JournalSegment] = []
            while let first = state.segments.first {
                let consumed = first.number < position.segment
                    || (includingLast && first.number == position.segment && first.end <= position.offset && state.segments.count == 1)
                guard consumed else { break }
                let segment = state.segments.removeFirst()
                state.liveBytes -= segment.capacity
                removed.append(segment)
            }
            return removed
        }
        for segment in removed { recycleOrRemove(segment) }
    }

    /// Keeps a consumed full-size segment file for reuse while fewer than ``maxFreeFiles`` wait,
    /// otherwise deletes it; a damaged one is kept aside for inspection.
    private func recycleOrRemove(_ segment: JournalSegment) {
        guard !segment.isDamaged else { return segment.keepAside() }
        let (wanted, gone) = state.withLock { state in
            (!state.isClosed && segment.format >= 2 && segment.capacity == configuration.segmentBytes
                && state.freeFiles.count < Self.maxFreeFiles, segment.fault == .removed)
        }
        // Deleted or replaced: its name no longer holds its file, so nothing there is touched.
        if gone { return }
        let free = directory + "/" + JournalSegment.freeName(segment.number)
        guard wanted, segment.retire(to: free) else {
            segment.remove()
            return
        }
        let kept = state.withLock { state in
            guard !state.isClosed else { return false }
            state.freeFiles.append(free)
            return true
        }
        if !kept { unlink(free) }
    }

    /// Hands back the pages of records already written, in every segment (see
    /// ``JournalSegment/releasePages(below:)``): the journal's resident memory stays near the
    /// active segment's unwritten part and the spare, however far the sender runs ahead. Called
    /// through ``maintainPagesInBackground(consumed:force:)``.
    func releaseWrittenPages() {
        let written: [(segment: JournalSegment, end: Int, sealed: Bool)] = state.withLock {
            $0.segments.map { ($0, $0.end, $0.sealed) }
        }
        for (segment, end, sealed) in written { segment.releasePages(below: end, all: sealed) }
    }

    /// Keeps the active segment's pages resident and writable a runway ahead of its end (see
    /// ``JournalSegment/populateAhead(of:)``), now; the ingest writer has it done in the background.
    func populateAhead() {
        let active: (segment: JournalSegment, end: Int)? = state.withLock {
            $0.segments.last.flatMap { $0.sealed ? nil : ($0, $0.end) }
        }
        if let (segment, end) = active { segment.populateAhead(of: end) }
    }

    /// Creates the next segment ahead of time when the active one is more than half full, so
    /// that an append rarely pays for creating a file. Called through
    /// ``maintainPagesInBackground(consumed:force:)``; from any thread (a call while another is preparing does nothing).
    func prepareNextSegment() {
        let number: UInt64? = state.withLock { state in
            guard state.spare == nil, state.preparing == nil, !state.isClosed, let active = state.segments.last, !active.sealed,
                  active.end > active.capacity / 2,
                  state.liveBytes + configuration.segmentBytes <= configuration.maxBytes,
                  (state.creationPausedUntil ?? .distantPast) <= Date(),
                  (state.preparePausedUntil ?? .distantPast) <= Date() else { return nil }
            state.preparing = state.nextNumber
            return state.nextNumber
        }
        guard let number else { return }
        let free = state.withLock { $0.freeFiles.popLast() }
        var failure: JournalError?
        var segment: JournalSegment?
        if let free {
            segment = try? JournalSegment.reuse(free, directory: directory, number: number, capacity: configuration.segmentBytes)
            if segment == nil { unlink(free) }
        }
        if segment == nil {
            do { segment = try JournalSegment.create(directory: directory, number: number, capacity: configuration.segmentBytes) } catch {
                failure = error
            }
        }
        let unused: JournalSegment? = state.withLockWakingWaiters { [failure, segment] state in
            state.preparing = nil
            // The disk may be short: appends try smaller segments themselves; creating ahead pauses.
            state.preparePausedUntil = failure == nil ? nil : Self.pauseEnd(afterFailures: 7)
            if state.spare == nil, state.nextNumber == number, !state.isClosed {
                state.spare = segment
                return nil
            }
            return segment
        }
        unused?.remove()
    }
}

extension EventJournal.State {
    /// Whether records exist after `position`.
    func hasRecords(after position: JournalPosition) -> Bool {
        segments.contains { segment in
            segment.number > position.segment ? segment.end > JournalSegment.headerSize
                : segment.number == position.segment && segment.end > position.offset
        }
    }

    /// For the consumer about to wait: whether it waits (`needed`, no wake-up asked for, the
    /// journal open), and if so marks it `consumer`, which tells appends when to wake it.
    mutating func beginWait(as consumer: EventJournal.ConsumerState, if needed: Bool) -> Bool {
        guard needed, !wakeRequested, !isClosed else { return false }
        self.consumer = consumer
        return true
    }
}
