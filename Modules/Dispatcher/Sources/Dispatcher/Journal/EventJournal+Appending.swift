import Foundation
import Tracking

// Appending, from any thread: records go into the current segment, new segments are made ahead.
extension EventJournal {
    /// Appends one event.
    /// - Returns: the position just after its record.
    /// - Throws: ``JournalError`` when the journal is full or closed, the event is too large, or a
    ///   new segment cannot be created.
    @discardableResult
    func append(_ event: some JournalEventSource) throws(JournalError) -> JournalPosition {
        let payload = JournalRecord.payloadSize(event)
        let frame = JournalRecord.frameSize(payload: payload)
        while true {
            let outcome: AppendOutcome = state.withLock { state in
                state.checkBeforeWriting()
                let segment: JournalSegment?
                do throws(JournalError) { segment = try state.write(event, payload: payload, frame: frame) } catch { return .failed(error) }
                guard let segment else { return .waitForSegment }
                state.appended += 1
                return .written(JournalPosition(segment: segment.number, offset: segment.end), wake: state.consumerWakeDue(),
                                pageWork: state.claimPageWorkForAppend())
            }
            switch outcome {
            case .written(let position, let wake, let pageWork):
                if wake { state.wakeWaiters() }
                if pageWork { queuePageWork() }
                return position
            case .failed(let error):
                throw error
            case .waitForSegment:
                waitForPreparedSegment()
            }
        }
    }

    /// Appends several events, in order, stopping at the first that cannot be written; under
    /// one lock unless the next segment is being made ahead meanwhile.
    /// - Returns: how many were written (a prefix of `events`), and the error that stopped the
    ///   rest, if any.
    func append(contentsOf events: [EncodedEvent]) -> (written: Int, error: JournalError?) {
        var written = 0
        while true {
            let (outcome, wake, pageWork): (AppendOutcome?, Bool, Bool) = state.withLock { state in
                state.checkBeforeWriting()
                var outcome: AppendOutcome?
                while written < events.count {
                    let event = events[written]
                    let payload = JournalRecord.payloadSize(event)
                    let frame = JournalRecord.frameSize(payload: payload)
                    let segment: JournalSegment?
                    do throws(JournalError) { segment = try state.write(event, payload: payload, frame: frame) } catch {
                        outcome = .failed(error)
                        break
                    }
                    guard segment != nil else {
                        outcome = .waitForSegment
                        break
                    }
                    state.appended += 1
                    written += 1
                }
                return (outcome, state.consumerWakeDue(), state.claimPageWorkForAppend())
            }
            if wake { state.wakeWaiters() }
            if pageWork { queuePageWork() }
            switch outcome {
            case nil, .written: return (written, nil)
            case .failed(let error): return (written, error)
            case .waitForSegment: waitForPreparedSegment()
            }
        }
    }

    /// What one attempt at an append under the lock came to.
    private enum AppendOutcome {
        /// Written, ending at the position; `wake`: the consumer is to be woken; `pageWork`: the
        /// page work is to be queued (see ``State/claimPageWorkForAppend()``).
        case written(JournalPosition, wake: Bool, pageWork: Bool)
        /// Not written, for this reason.
        case failed(JournalError)
        /// Not written: the next segment is being made ahead by the page work; wait and try again.
        case waitForSegment
    }

    /// Waits (rarely, briefly) until the page work has finished making the next segment, or the
    /// journal is closed.
    private func waitForPreparedSegment() {
        state.wait(until: { $0.preparing != $0.nextNumber || $0.isClosed })
    }

    /// Asks the kernel to write every segment to disk (for power-loss durability; not needed
    /// for process death).
    func sync() {
        let current = state.withLock { $0.segments }
        for segment in current { segment.sync() }
    }

    /// When creating may be tried again after `failures` failures in a row: 50 ms, doubling up to 2 s.
    static func pauseEnd(afterFailures failures: Int) -> Date {
        Date(timeIntervalSinceNow: min(2, 0.05 * Double(1 << min(max(failures - 1, 0), 6))))
    }

    /// Whether `code` says the disk (or a quota or size limit) has no room.
    static func isOutOfSpace(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT || code == EFBIG }

    /// Whether creating segments is paused after a failure (a full disk): appends that need a new
    /// segment fail at once until the pause ends.
    var isCreationPaused: Bool {
        state.withLock { $0.creationPausedUntil.map { Date() < $0 } ?? false }
    }

    /// Events appended since the journal was opened.
    var appendedCount: Int { state.withLock { $0.appended } }

    /// The position after the last record appended (or left over).
    var endPosition: JournalPosition { state.withLock { $0.endPosition() } }
}

extension EventJournal.State {
    /// Writes `event`'s record into the writable segment, preceded by its shared context's record
    /// when that segment does not hold it yet (so every segment replays on its own).
    /// - Returns: the segment written to, or `nil` when the next segment is being made ahead
    ///   (nothing was written; wait for it and try again).
    @inline(__always)
    mutating func write(_ event: some JournalEventSource, payload: Int, frame: Int) throws(JournalError) -> JournalSegment? {
        guard let shared = event.sharedContext else {
            guard let segment = try writableSegment(for: frame) else { return nil }
            JournalRecord.write(event, payload: payload, to: segment.base + segment.end, salt: segment.number, sequence: segment.nextSequence)
            segment.nextSequence &+= 1
            segment.end += frame
            return segment
        }
        let contextPayload = JournalRecord.payloadSize(shared)
        let contextFrame = JournalRecord.frameSize(payload: contextPayload)
        guard var segment = try writableSegment(for: frame) else { return nil }
        // The last event's shared context is found without hashing into the set.
        if segment.lastJournalledContext != shared.hash, !segment.journalledContexts.contains(shared.hash) {
            guard let roomier = try writableSegment(for: frame + contextFrame) else { return nil }
            segment = roomier
            if !segment.journalledContexts.contains(shared.hash) {
                JournalRecord.write(shared, payload: contextPayload, to: segment.base + segment.end, salt: segment.number, sequence: segment.nextSequence)
                segment.nextSequence &+= 1
                segment.end += contextFrame
                segment.journalledContexts.insert(shared.hash)
            }
        }
        segment.lastJournalledContext = shared.hash
        JournalRecord.write(event, payload: payload, to: segment.base + segment.end, salt: segment.number, sequence: segment.nextSequence)
        segment.nextSequence &+= 1
        segment.end += frame
        return segment
    }

    /// Whether the consumer is to be woken (it sleeps with nothing to read, or lingers while many
    /// records wait); if so, marks it running, so that the caller wakes it once.
    mutating func consumerWakeDue() -> Bool {
        switch consumer {
        case .running: return false
        case .sleeping: break
        case .lingering: guard manyWaiting() else { return false }
        }
        consumer = .running
        wakeUpCount += 1
        return true
    }

    /// Whether enough records wait for the consumer to take them now rather than after its linger.
    func manyWaiting() -> Bool {
        appended - lingerBase >= EventJournal.wakeThreshold || liveBytes * 2 > configuration.maxBytes
    }

    /// The segment to write a `frame`-byte record into, rotating when the active one is full.
    /// - Returns: `nil` when the page work is making the next segment ahead of time: the caller
    ///   waits for it outside the lock (rare, short) and tries again.
    mutating func writableSegment(for frame: Int) throws(JournalError) -> JournalSegment? {
        guard !isClosed else { throw .closed }
        let limit = configuration.segmentBytes - JournalSegment.headerSize
        guard frame <= limit else { throw .recordTooLarge(bytes: frame, limit: limit) }
        if let active = segments.last, !active.sealed, active.end + frame <= active.capacity { return active }
        if preparing == nextNumber { return nil }
        let next: JournalSegment
        if let spare, spare.fault == nil, let fault = spare.checkFile() {
            // Changed since it was made ahead: not used; its file goes when it is still its own.
            if fault != .removed { spare.remove() }
            spare.fault = .removed
            self.spare = nil
        }
        if let spare, spare.number == nextNumber, liveBytes + spare.capacity <= configuration.maxBytes {
            next = spare
            self.spare = nil
            nextNumber += 1
        } else {
            next = try createSegment(minimumCapacity: JournalSegment.headerSize + frame)
        }
        let previous = segments.last
        previous?.sealed = true
        segments.append(next)
        liveBytes += next.capacity
        if let previous, previous.createdHere { writeSeal(in: next, after: previous, reserving: frame) }
        return next
    }

    /// Writes the seal record of `previous` (how many records it holds) as the first record of
    /// `next`, when it leaves room for the `frame`-byte record that made the rotation.
    private func writeSeal(in next: JournalSegment, after previous: JournalSegment, reserving frame: Int) {
        let sealFrame = JournalRecord.frameSize(payload: JournalRecord.sealPayload)
        guard next.end == JournalSegment.headerSize, next.end + sealFrame + frame <= next.capacity else { return }
        JournalRecord.write(JournalRecord.SegmentSeal(previous: previous.number, records: previous.nextSequence),
                            to: next.base + next.end, salt: next.number, sequence: next.nextSequence)
        next.nextSequence &+= 1
        next.end += sealFrame
    }

    /// Creates segment `nextNumber` within the byte budget: full size when it fits, smaller when
    /// the budget or the disk has less room, skipping numbers taken by files that appeared.
    /// After a failure, creating is paused (the error is thrown again without a system call).
    mutating func createSegment(minimumCapacity: Int) throws(JournalError) -> JournalSegment {
        if let until = creationPausedUntil, let error = lastCreationError, Date() < until { throw error }
        let page = 4_096
        let needed = (minimumCapacity + page - 1) / page * page
        let smallest = max(needed, min(configuration.segmentBytes, JournalConfiguration.smallestSegmentBytes))
        let room = (configuration.maxBytes - liveBytes) / page * page
        guard room >= smallest else { throw .full(bytes: configuration.maxBytes) }
        var capacity = min(configuration.segmentBytes, room)
        var skipped = 0
        while true {
            do {
                let segment = try JournalSegment.create(directory: directory, number: nextNumber, capacity: capacity)
                nextNumber += 1
                creationPausedUntil = nil
                creationFailures = 0
                lastCreationError = nil
                return segment
            } catch {
                if case .io(_, _, let code) = error {
                    if code == ENOENT, recreateFolder() { continue }
                    if code == EEXIST, skipped < 1_000 {
                        nextNumber += 1
                        skipped += 1
                        continue
                    }
                    // No room on disk, or no address space to map it: a smaller segment may fit.
                    if EventJournal.isOutOfSpace(code) || code == ENOMEM, capacity / 4 >= smallest {
                        capacity = capacity / 4 / page * page
                        continue
                    }
                }
                creationFailures += 1
                creationPausedUntil = EventJournal.pauseEnd(afterFailures: creationFailures)
                lastCreationError = error
                throw error
            }
        }
    }

    /// The position after the last record appended (or left over).
    func endPosition() -> JournalPosition {
        // With no segment, nothing is waiting: a position no consumer cursor is before.
        guard let last = segments.last else { return JournalPosition(segment: nextNumber - 1, offset: 0) }
        return JournalPosition(segment: last.number, offset: last.end)
    }
}
