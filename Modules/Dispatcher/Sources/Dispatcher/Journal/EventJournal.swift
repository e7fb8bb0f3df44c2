import Foundation

/// The fast, crash-safe front of the store: an append-only log of events in memory-mapped
/// segment files that the kernel keeps when the process dies.
///
/// ``append(_:)`` copies one record into the current segment under a short lock (no system call
/// in the common case); once it returns the event survives `kill -9`, because the bytes are
/// in the kernel's page cache. It does **not** survive power loss until the ingest writer has
/// committed it to SQLite (or ``sync()`` ran). When a segment is full, appends move to the next
/// one (prepared ahead of time by the consumer when possible).
///
/// One consumer (the ``IngestWriter``) reads records in order with ``read(from:maxRecords:)``,
/// waits for new ones with ``waitForRecords(after:timeout:)`` and deletes consumed segments with
/// ``discard(before:)``.
///
/// Appends rarely wake the consumer (group commit): an idle consumer is woken by the first record,
/// then lingers for ``lingerInterval`` so that the records arriving meanwhile are committed
/// together; during the linger an append wakes it only when ``wakeThreshold`` records are waiting
/// or more than half of the byte budget is in use. ``wakeConsumer()`` ends a linger at once.
///
/// Faults:
/// - On open, segments left by an earlier run are kept, sealed, readable up to their first zero
///   or torn record, and new appends go to a fresh segment numbered above every file in the
///   folder. A file named like a segment that is not one is removed when empty (a crash while
///   creating it leaves that) and otherwise renamed `<name>.unreadable`, never reused.
/// - A segment number taken by a file that appeared meanwhile is skipped, not fatal.
/// - When the disk cannot hold a full-size segment, smaller ones are tried; when none fits,
///   appends fail with that error and creating is not tried again for a growing pause (50 ms
///   up to 2 s), so a full disk costs no system calls per append and no busy loop.
final class EventJournal: @unchecked Sendable {
    // Safe: `segments`, `liveBytes`, `spare`, `preparing`, the creation pause fields, `appended`, `consumer`, `lingerBase`, `producerWakeUps`,
    // `wakeRequested` and `isClosed`, and the writable region of the active segment, are only
    // touched while holding `condition`.
    private let condition = NSCondition()
    private var segments: [JournalSegment] = []
    private var spare: JournalSegment?
    private var preparing: UInt64?
    private var nextNumber: UInt64
    private var appended = 0
    private var consumer = ConsumerState.running
    /// `appended` when the consumer started its current wait: what it has not consumed is counted from here.
    private var lingerBase = 0
    /// How many times an append woke the consumer (tests and diagnostics).
    var producerWakeUps: Int { condition.withLock { wakeUpCount } }
    private var wakeUpCount = 0
    private var wakeRequested = false
    private var isClosed = false
    /// The capacity of the live segments, against ``JournalConfiguration/maxBytes``.
    private var liveBytes = 0
    /// After a failed segment creation: no new attempt before this moment.
    private var creationPausedUntil: Date?
    private var creationFailures = 0
    private var lastCreationError: JournalError?
    /// After a failed ahead-of-time creation: no new one before this moment.
    private var preparePausedUntil: Date?

    /// The folder holding the segment files.
    let directory: String
    /// Segment size and count bound.
    let configuration: JournalConfiguration
    /// Segments that an earlier run left behind, found when opening.
    let leftoverSegments: Int
    /// How long the consumer, woken by a first record, waits for more before taking them.
    let lingerInterval: TimeInterval
    /// How many waiting records make an append wake a lingering consumer at once.
    static let wakeThreshold = 256

    /// What the consumer is doing, as far as appends are concerned.
    private enum ConsumerState {
        /// Not waiting: appends need not wake it.
        case running
        /// Waiting with nothing to read: the next append wakes it.
        case sleeping
        /// Waiting for more records to gather: appends wake it only when many are waiting.
        case lingering
    }

    /// Opens (creating if needed, mode 0700) a journal folder and keeps its leftover segments.
    /// - Parameters:
    ///   - directory: the folder.
    ///   - configuration: segment size and count bound.
    ///   - minimumSegment: new segments are numbered above this (the store's last known position),
    ///     so a number is never reused even when every file was deleted.
    ///   - lingerInterval: how long a woken consumer waits for more records. Defaults to 2 ms.
    /// - Throws: ``StoreError`` when the folder cannot be created, ``JournalError`` when it cannot be read.
    init(directory: String, configuration: JournalConfiguration = JournalConfiguration(), minimumSegment: UInt64 = 0,
                lingerInterval: TimeInterval = 0.002) throws {
        self.directory = directory
        self.configuration = configuration
        self.lingerInterval = max(0, lingerInterval)
        try FileProtection.createDirectory(atPath: directory)
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw JournalError.io(path: directory, operation: "list", errno: Int32((error as NSError).code))
        }
        var found: [JournalSegment] = []
        var highest = minimumSegment
        for name in names.sorted() {
            guard let number = JournalSegment.number(fromFileName: name) else { continue }
            highest = max(highest, number)
            if let segment = try JournalSegment.openLeftover(directory: directory, name: name) {
                found.append(segment)
            } else {
                JournalSegment.setAsideUnreadable(directory: directory, name: name)
            }
        }
        found.sort { $0.number < $1.number }
        segments = found
        liveBytes = found.reduce(0) { $0 + $1.capacity }
        leftoverSegments = found.count
        nextNumber = highest + 1
    }

    // MARK: Appending (any thread)

    /// Appends one event.
    /// - Returns: the position just after its record.
    /// - Throws: ``JournalError`` when the journal is full or closed, the event is too large, or a
    ///   new segment cannot be created.
    @discardableResult
    func append(_ event: EncodedEvent) throws(JournalError) -> JournalPosition {
        let payload = JournalRecord.payloadSize(event)
        let frame = JournalRecord.frameSize(payload: payload)
        condition.lock()
        defer { condition.unlock() }
        let segment = try writableSegment(for: frame)
        JournalRecord.write(event, payload: payload, to: segment.base + segment.end)
        segment.end += frame
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
        var written = 0
        for event in events {
            let payload = JournalRecord.payloadSize(event)
            let frame = JournalRecord.frameSize(payload: payload)
            let segment: JournalSegment
            do { segment = try writableSegment(for: frame) } catch { return (written, error) }
            JournalRecord.write(event, payload: payload, to: segment.base + segment.end)
            segment.end += frame
            appended += 1
            written += 1
        }
        return (written, nil)
    }

    /// Wakes the consumer when it sleeps with nothing to read, or lingers while many records wait.
    private func wakeConsumerIfDueLocked() {
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
    private func manyWaitingLocked() -> Bool {
        appended - lingerBase >= Self.wakeThreshold || liveBytes * 2 > configuration.maxBytes
    }

    /// The segment to write a `frame`-byte record into, rotating when the active one is full.
    private func writableSegment(for frame: Int) throws(JournalError) -> JournalSegment {
        guard !isClosed else { throw .closed }
        let limit = configuration.segmentBytes - JournalSegment.headerSize
        guard frame <= limit else { throw .recordTooLarge(bytes: frame, limit: limit) }
        if let active = segments.last, !active.sealed, active.end + frame <= active.capacity { return active }
        // The consumer may be creating this very segment ahead of time: wait for it (rare, short).
        while preparing == nextNumber, !isClosed { condition.wait() }
        guard !isClosed else { throw .closed }
        let next: JournalSegment
        if let spare, spare.number == nextNumber, liveBytes + spare.capacity <= configuration.maxBytes {
            next = spare
            self.spare = nil
            nextNumber += 1
        } else {
            next = try createSegmentLocked(minimumCapacity: JournalSegment.headerSize + frame)
        }
        segments.last?.sealed = true
        segments.append(next)
        liveBytes += next.capacity
        return next
    }

    /// Creates segment `nextNumber` within the byte budget: full size when it fits, smaller when
    /// the budget or the disk has less room, skipping numbers taken by files that appeared.
    /// After a failure, creating is paused (the error is thrown again without a system call).
    private func createSegmentLocked(minimumCapacity: Int) throws(JournalError) -> JournalSegment {
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
                    if code == EEXIST, skipped < 1_000 {
                        nextNumber += 1
                        skipped += 1
                        continue
                    }
                    if Self.isOutOfSpace(code), capacity / 4 >= smallest {
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
    private static func pauseEnd(afterFailures failures: Int) -> Date {
        Date(timeIntervalSinceNow: min(2, 0.05 * Double(1 << min(max(failures - 1, 0), 6))))
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

    private func endPositionLocked() -> JournalPosition {
        // With no segment, nothing is waiting: a position no consumer cursor is before.
        guard let last = segments.last else { return JournalPosition(segment: nextNumber - 1, offset: 0) }
        return JournalPosition(segment: last.number, offset: last.end)
    }

    // MARK: Consuming (one consumer thread)

    /// What ``read(from:maxRecords:)`` found.
    struct Batch: Sendable {
        /// The events, in append order.
        var events: [EncodedEvent]
        /// Where the next read starts (after these events).
        var next: JournalPosition
        /// Whether a damaged record was skipped (the rest of that segment is ignored).
        var skippedDamage: Bool
    }

    /// Reads up to `maxRecords` events after `position`, moving across segments. Never blocks
    /// appends for longer than taking a snapshot.
    func read(from position: JournalPosition, maxRecords: Int) -> Batch {
        var cursor = position
        var events: [EncodedEvent] = []
        var damaged = false
        while events.count < maxRecords {
            let snapshot: (segment: JournalSegment, end: Int, sealed: Bool)? = condition.withLock {
                guard let segment = segments.first(where: { $0.number >= cursor.segment }) else { return nil }
                return (segment, segment.end, segment.sealed)
            }
            guard let (segment, end, sealed) = snapshot else { break }
            if segment.number > cursor.segment { cursor = JournalPosition(segment: segment.number, offset: JournalSegment.headerSize) }
            let result = segment.read(from: cursor.offset, to: end, maxRecords: maxRecords - events.count)
            events.append(contentsOf: result.events)
            cursor.offset = result.next
            if result.damaged {
                damaged = true
                cursor.offset = end
            }
            guard cursor.offset >= end else { break }
            guard sealed else { break }
            // The segment is finished: continue in the next one, if any.
            let hasNext = condition.withLock { segments.contains { $0.number > segment.number } }
            guard hasNext else { break }
            cursor = JournalPosition(segment: segment.number + 1, offset: 0)
        }
        if cursor.offset == 0 {
            let first = condition.withLock { segments.first { $0.number >= cursor.segment }?.number }
            cursor = JournalPosition(segment: first ?? cursor.segment, offset: JournalSegment.headerSize)
        }
        return Batch(events: events, next: cursor, skippedDamage: damaged)
    }

    /// Waits until records exist after `position` and have had ``lingerInterval`` to gather (or
    /// ``wakeThreshold`` of them are waiting), the timeout passes, or ``wakeConsumer()`` is called.
    /// - Returns: whether records are available.
    @discardableResult
    func waitForRecords(after position: JournalPosition, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer {
            consumer = .running
            wakeRequested = false
            condition.unlock()
        }
        lingerBase = appended
        // Asleep until the first record: the append that writes it wakes the consumer.
        while !hasRecordsLocked(after: position), !wakeRequested, !isClosed {
            consumer = .sleeping
            if !condition.wait(until: deadline) { break }
        }
        // Then linger, so that one group commit takes the records arriving meanwhile.
        let lingerEnd = min(deadline, Date(timeIntervalSinceNow: lingerInterval))
        while hasRecordsLocked(after: position), !wakeRequested, !isClosed, !manyWaitingLocked() {
            consumer = .lingering
            if !condition.wait(until: lingerEnd) { break }
        }
        return hasRecordsLocked(after: position)
    }

    private func hasRecordsLocked(after position: JournalPosition) -> Bool {
        segments.contains { segment in
            segment.number > position.segment ? segment.end > JournalSegment.headerSize
                : segment.number == position.segment && segment.end > position.offset
        }
    }

    /// Wakes a consumer blocked in ``waitForRecords(after:timeout:)``.
    func wakeConsumer() {
        condition.withLock {
            wakeRequested = true
            condition.broadcast()
        }
    }

    /// Deletes the segments entirely before `position` (their events are safely in the store).
    /// When `position` is at the end of the last segment and `includingLast` is set, that one goes too.
    func discard(before position: JournalPosition, includingLast: Bool = false) {
        let removed: [JournalSegment] = condition.withLock {
            var removed: [JournalSegment] = []
            while let first = segments.first {
                let consumed = first.number < position.segment
                    || (includingLast && first.number == position.segment && first.end <= position.offset && segments.count == 1)
                guard consumed else { break }
                let segment = segments.removeFirst()
                liveBytes -= segment.capacity
                removed.append(segment)
            }
            return removed
        }
        for segment in removed { segment.remove() }
    }

    /// Creates the next segment ahead of time when the active one is more than half full, so
    /// that an append rarely pays for creating a file. Called by the consumer.
    func prepareNextSegment() {
        let number: UInt64? = condition.withLock {
            guard spare == nil, preparing == nil, !isClosed, let active = segments.last, !active.sealed,
                  active.end > active.capacity / 2,
                  liveBytes + configuration.segmentBytes <= configuration.maxBytes,
                  (creationPausedUntil ?? .distantPast) <= Date(), (preparePausedUntil ?? .distantPast) <= Date() else { return nil }
            preparing = nextNumber
            return nextNumber
        }
        guard let number else { return }
        var failure: JournalError?
        let segment: JournalSegment?
        do { segment = try JournalSegment.create(directory: directory, number: number, capacity: configuration.segmentBytes) } catch {
            segment = nil
            failure = error
        }
        let unused: JournalSegment? = condition.withLock {
            preparing = nil
            condition.broadcast()
            // The disk may be short: appends try smaller segments themselves; creating ahead pauses.
            preparePausedUntil = failure == nil ? nil : Self.pauseEnd(afterFailures: 7)
            if spare == nil, nextNumber == number, !isClosed {
                spare = segment
                return nil
            }
            return segment
        }
        unused?.remove()
    }

    /// Asks the kernel to write every segment to disk (for power-loss durability; not needed
    /// for process death).
    func sync() {
        let current = condition.withLock { segments }
        for segment in current { segment.sync() }
    }

    /// Closes the journal: appends fail with ``JournalError/closed`` and the unused spare
    /// segment is deleted. Segment files with events stay for the next run.
    func close() {
        let unused: JournalSegment? = condition.withLock {
            isClosed = true
            condition.broadcast()
            defer { spare = nil }
            return spare
        }
        unused?.remove()
    }

    /// Every event readable in the segments of `directory`, in order: what a restart recovers.
    /// Reading stops, per segment, at the first zero, torn or damaged record.
    static func recover(directory: String) throws -> [EncodedEvent] {
        let journal = try EventJournal(directory: directory)
        defer { journal.close() }
        var events: [EncodedEvent] = []
        var position = JournalPosition.start
        while true {
            let batch = journal.read(from: position, maxRecords: 4_096)
            events.append(contentsOf: batch.events)
            if batch.events.isEmpty && batch.next == position { break }
            position = batch.next
            if batch.events.isEmpty, !journal.hasRecords(after: position) { break }
        }
        return events
    }

    /// Whether records exist after `position`.
    func hasRecords(after position: JournalPosition) -> Bool {
        condition.withLock { hasRecordsLocked(after: position) }
    }
}
