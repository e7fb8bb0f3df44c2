import Foundation

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
        condition.lock()
        defer { condition.unlock() }
        checkBeforeWritingLocked()
        let segment = try writeLocked(event, payload: payload, frame: frame)
        appended += 1
        wakeConsumerIfDueLocked()
        return JournalPosition(segment: segment.number, offset: segment.end)
    }

    /// Appends several events under one lock, in order, stopping at the first that cannot be
    /// written.
    /// - Returns: how many were written (a prefix of `events`), and the error that stopped the
    ///   rest, if any.
    func append(contentsOf events: [EncodedEvent]) -> (written: Int, error: JournalError?) {
        condition.lock()
        defer {
            wakeConsumerIfDueLocked()
            condition.unlock()
        }
        checkBeforeWritingLocked()
        var written = 0
        for event in events {
            let payload = JournalRecord.payloadSize(event)
            let frame = JournalRecord.frameSize(payload: payload)
            do { _ = try writeLocked(event, payload: payload, frame: frame) } catch { return (written, error) }
            appended += 1
            written += 1
        }
        return (written, nil)
    }

    /// Writes `event`'s record into the writable segment, preceded by its shared context's record
    /// when that segment does not hold it yet (so every segment replays on its own).
    /// - Returns: the segment written to.
    @inline(__always)
    private func writeLocked(_ event: some JournalEventSource, payload: Int, frame: Int) throws(JournalError) -> JournalSegment {
        guard let shared = event.sharedContext else {
            let segment = try writableSegment(for: frame)
            JournalRecord.write(event, payload: payload, to: segment.base + segment.end, salt: segment.number, sequence: segment.nextSequence)
            segment.nextSequence &+= 1
            segment.end += frame
            return segment
        }
        let contextPayload = JournalRecord.payloadSize(shared)
        let contextFrame = JournalRecord.frameSize(payload: contextPayload)
        var segment = try writableSegment(for: frame)
        if !segment.journalledContexts.contains(shared.hash) {
            segment = try writableSegment(for: frame + contextFrame)
            if !segment.journalledContexts.contains(shared.hash) {
                JournalRecord.write(shared, payload: contextPayload, to: segment.base + segment.end, salt: segment.number, sequence: segment.nextSequence)
                segment.nextSequence &+= 1
                segment.end += contextFrame
                segment.journalledContexts.insert(shared.hash)
            }
        }
        JournalRecord.write(event, payload: payload, to: segment.base + segment.end, salt: segment.number, sequence: segment.nextSequence)
        segment.nextSequence &+= 1
        segment.end += frame
        return segment
    }

    /// Wakes the consumer when it sleeps with nothing to read, or lingers while many records wait.
    func wakeConsumerIfDueLocked() {
        switch consumer {
        case .running: return
        case .sleeping: break
        case .lingering: guard manyWaitingLocked() else { return }
        }
        consumer = .running
        wakeUpCount += 1
        condition.broadcast()
    }

    /// Whether enough records wait for the consumer to take them now rather than after its linger.
    func manyWaitingLocked() -> Bool {
        appended - lingerBase >= Self.wakeThreshold || liveBytes * 2 > configuration.maxBytes
    }

    /// The segment to write a `frame`-byte record into, rotating when the active one is full.
    func writableSegment(for frame: Int) throws(JournalError) -> JournalSegment {
        guard !isClosed else { throw .closed }
        let limit = configuration.segmentBytes - JournalSegment.headerSize
        guard frame <= limit else { throw .recordTooLarge(bytes: frame, limit: limit) }
        if let active = segments.last, !active.sealed, active.end + frame <= active.capacity { return active }
        // The page work may be creating this very segment ahead of time: wait for it (rare, short).
        while preparing == nextNumber, !isClosed { condition.wait() }
        guard !isClosed else { throw .closed }
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
            next = try createSegmentLocked(minimumCapacity: JournalSegment.headerSize + frame)
        }
        let previous = segments.last
        previous?.sealed = true
        segments.append(next)
        liveBytes += next.capacity
        if let previous, previous.createdHere { writeSealLocked(in: next, after: previous, reserving: frame) }
        return next
    }

    /// Writes the seal record of `previous` (how many records it holds) as the first record of
    /// `next`, when it leaves room for the `frame`-byte record that made the rotation.
    private func writeSealLocked(in next: JournalSegment, after previous: JournalSegment, reserving frame: Int) {
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
    func createSegmentLocked(minimumCapacity: Int) throws(JournalError) -> JournalSegment {
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
                    if code == ENOENT, recreateFolderLocked() { continue }
                    if code == EEXIST, skipped < 1_000 {
                        nextNumber += 1
                        skipped += 1
                        continue
                    }
                    // No room on disk, or no address space to map it: a smaller segment may fit.
                    if Self.isOutOfSpace(code) || code == ENOMEM, capacity / 4 >= smallest {
                        capacity = capacity / 4 / page * page
                        continue
                    }
                }
                creationFailures += 1
                creationPausedUntil = Self.pauseEnd(afterFailures: creationFailures)
                lastCreationError = error
                throw error
            }
        }
    }

    /// When creating may be tried again after `failures` failures in a row: 50 ms, doubling up to 2 s.
    static func pauseEnd(afterFailures failures: Int) -> Date {
        Date(timeIntervalSinceNow: min(2, 0.05 * Double(1 << min(max(failures - 1, 0), 6))))
    }

    /// Asks the kernel to write every segment to disk (for power-loss durability; not needed
    /// for process death).
    func sync() {
        let current = condition.withLock { segments }
        for segment in current { segment.sync() }
    }

    /// Whether `code` says the disk (or a quota or size limit) has no room.
    static func isOutOfSpace(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT || code == EFBIG }

    /// Whether creating segments is paused after a failure (a full disk): appends that need a new
    /// segment fail at once until the pause ends.
    var isCreationPaused: Bool {
        condition.withLock { creationPausedUntil.map { Date() < $0 } ?? false }
    }

    /// Events appended since the journal was opened.
    var appendedCount: Int { condition.withLock { appended } }

    /// The position after the last record appended (or left over).
    var endPosition: JournalPosition { condition.withLock { endPositionLocked() } }

    func endPositionLocked() -> JournalPosition {
        // With no segment, nothing is waiting: a position no consumer cursor is before.
        guard let last = segments.last else { return JournalPosition(segment: nextNumber - 1, offset: 0) }
        return JournalPosition(segment: last.number, offset: last.end)
    }
}
