import Foundation

/// Makes events durable without making the caller wait for SQLite.
///
/// The Dispatcher's ``write(_:)`` and ``write(contentsOf:)`` append events to an ``EventJournal``
/// (a copy into a memory-mapped file under a short lock: about a microsecond or less, and
/// durable against `kill -9` once it returns). A background thread moves journal records into
/// the ``EventStore`` in group commits of up to ``IngestConfiguration/batchSize`` events,
/// recording in the same transaction how far it got, then deletes journal segments that are
/// fully in the store. After each commit it records the events' steps in the timeline, tells its
/// ``IngestSink``, and asks the ``DeliveryScheduler`` with ``DeliveryRequest/committed(_:)``:
/// it never decides about delivery, and never calls the Dispatcher.
///
/// - On start, segments left by an earlier run are replayed into the store first (ids already
///   there are ignored, the scheduler is told ``DeliveryRequest/replayed(_:)``), before the
///   writer takes new events. Damaged records are stepped over; what damage took is in the
///   journal's ``EventJournal/damage``, which the Dispatcher reports.
/// - When the store fails (full disk, read-only folder), events wait in the journal, bounded by
///   ``JournalConfiguration/maxBytes``; the error is reported and the write retried with a
///   growing interval. When the journal cannot take an event either, ``write(_:)`` throws why
///   and counts nothing: the Dispatcher keeps such events in memory or refuses them, and counts
///   that. Nothing here crashes on I/O.
/// - ``close(timeout:)`` persists everything written, then stops the thread.
final class IngestWriter: @unchecked Sendable {
    // Unchecked: waiters block on `condition` (a LockedValue cannot wait), which guards
    // `committed`, `stats`, `stopping`, `finished`, `crashed`, `lastReport` and `lastFileCheck`;
    // `readCursor` and `pendingBatch` belong to the writer thread (or `init`).
    let condition = NSCondition()
    /// How far the store has the journal's records (guarded by `condition`).
    private(set) var committed: JournalPosition
    var stats = IngestStatistics()
    private var stopping = false
    private var finished = false
    private var crashed = false
    private var lastReport: (text: String, time: Date)?
    /// When the files were last checked (``checkFiles(force:)``), in ``CoarseClock`` seconds.
    var lastFileCheck: TimeInterval = 0
    private var readCursor: JournalPosition
    private var pendingBatch: EventJournal.BorrowedBatch?

    /// The store events are moved into.
    let store: EventStore
    /// The journal events are appended to.
    let journal: EventJournal
    /// Batch size, retry timing and journal bounds.
    let configuration: IngestConfiguration
    /// Where the steps `persisted` and `evicted` are recorded.
    let timeline: EventTimeline?
    /// Asked for delivery after each commit.
    let scheduler: DeliveryScheduler?
    /// Told about each commit, for counters and diagnostics.
    let sink: (any IngestSink)?
    private let onError: (@Sendable (any Error) -> Void)?

    /// The `meta` key under which the journal position reached is stored.
    static let positionKey = "_ingest.journal_position"

    /// Opens the journal, replays what an earlier run left in it, and starts the writer thread.
    /// - Parameters:
    ///   - store: the store to fill; it stays open after ``close(timeout:)`` (its owner closes it).
    ///   - journalDirectory: the journal folder. Defaults to `<store path>.journal` beside the store.
    ///   - configuration: batch size, retry timing, journal bounds.
    ///   - timeline: where each committed event's `persisted` (or `evicted`) step is recorded.
    ///   - scheduler: asked for delivery after each commit; it decides whether a round runs.
    ///   - sink: told about each commit on the writer thread (flag counts, evictions).
    ///   - onError: called on the writer or calling thread when storing or journalling fails
    ///     (at most once a second for a repeated error).
    /// - Throws: ``StoreError`` or ``JournalError`` when the journal folder cannot be created or read.
    init(
        store: EventStore,
        journalDirectory: String? = nil,
        configuration: IngestConfiguration = IngestConfiguration(),
        timeline: EventTimeline? = nil,
        scheduler: DeliveryScheduler? = nil,
        sink: (any IngestSink)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil
    ) throws {
        self.store = store
        self.configuration = configuration
        self.timeline = timeline
        self.scheduler = scheduler
        self.sink = sink
        self.onError = onError
        let stored = (try? store.metadata(Self.positionKey)).flatMap { $0 }.flatMap(JournalPosition.init) ?? .start
        journal = try EventJournal(directory: journalDirectory ?? store.path + ".journal",
                                   configuration: configuration.journal, minimumSegment: stored.segment)
        committed = stored
        readCursor = stored
        if journal.leftoverSegments > 0 {
            while case .persisted(let count) = persistNextBatch(replaying: true) { stats.replayed += count }
        }
        // The writer's loop is the one long job of a queue of its own.
        BlockingQueue(label: "Dispatcher.ingest").start { [self] in run() }
    }

    // MARK: The caller's side

    /// Appends `event` to the journal, or throws why it could not; counts nothing (the caller
    /// decides what happens to a refused event).
    func write(_ event: some JournalEventSource) throws(JournalError) { try journal.append(event) }

    /// Appends a prefix of `events` to the journal; counts nothing.
    /// - Returns: how many were written, and the error that stopped the rest.
    func write(contentsOf events: [EncodedEvent]) -> (written: Int, error: JournalError?) { journal.append(contentsOf: events) }

    /// Counters since start.
    var statistics: IngestStatistics {
        var snapshot = condition.withLock { stats }
        snapshot.journalled = journal.appendedCount
        return snapshot
    }

    /// Persists everything written, stops the writer thread and closes the journal, deleting
    /// its files when everything reached the store. Later writes throw ``JournalError/closed``.
    /// - Parameter timeout: the longest wait for the writer.
    /// - Returns: whether everything written reached the store (when not, it stays in the
    ///   journal for the next start).
    @discardableResult
    func close(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
        journal.wakeConsumer()
        condition.lock()
        while !finished {
            if !condition.wait(until: deadline) { break }
        }
        let position = committed
        let done = finished
        condition.unlock()
        journal.close()
        let drained = done && !journal.hasRecords(after: position)
        if drained { journal.discard(before: position, includingLast: true) }
        return drained
    }

    /// Stops the writer thread at once, persisting nothing more and cleaning nothing up, as if
    /// the process had died (tests).
    func simulateCrash() {
        condition.withLock {
            crashed = true
            stopping = true
            condition.broadcast()
        }
        journal.wakeConsumer()
        condition.withLock {
            while !finished { condition.wait() }
        }
    }

    // MARK: The writer thread

    private enum Step {
        case persisted(Int)
        case idle
        case failed
    }

    private func run() {
        var retryDelay = configuration.retryInterval
        loop: while true {
            if condition.withLock({ crashed }) { break }
            checkFiles()
            journal.maintainPagesInBackground(consumed: readCursor)
            switch persistNextBatch() {
            case .persisted:
                retryDelay = configuration.retryInterval
            case .idle:
                if condition.withLock({ stopping }) { break loop }
                journal.maintainPagesInBackground(consumed: readCursor, force: true)
                journal.waitForRecords(after: readCursor, timeout: 1)
            case .failed:
                let stop: Bool = condition.withLock {
                    guard !stopping else { return true }
                    _ = condition.wait(until: Date(timeIntervalSinceNow: retryDelay))
                    return crashed
                }
                if stop { break loop }
                retryDelay = min(configuration.maxRetryInterval, retryDelay * 2)
            }
        }
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// Reads the next group from the journal (or retries the one that failed) and commits it.
    /// - Parameter replaying: the group is what an earlier run left (see ``DeliveryRequest/replayed(_:)``).
    private func persistNextBatch(replaying: Bool = false) -> Step {
        // Borrowed from a segment cut since: its bytes past the cut are zeros now; read it again.
        if let batch = pendingBatch, journal.wasCut(batch.segments) { pendingBatch = nil }
        if pendingBatch == nil {
            let batch = journal.readBorrowed(from: readCursor, maxRecords: configuration.batchSize)
            if batch.skippedDamage {
                report(JournalError.io(path: journal.directory, operation: "read (damaged record skipped)", errno: EIO))
            }
            if batch.events.isEmpty {
                journal.noteStored(batch.marks)
                if batch.next != readCursor { advance(to: batch.next) }
                return .idle
            }
            pendingBatch = batch
        }
        guard let batch = pendingBatch else { return .idle }
        do {
            let outcome = try store.insert(batch.events, settingMetadata: [Self.positionKey: batch.next.description])
            pendingBatch = nil
            condition.withLock {
                stats.persisted += outcome.inserted
                stats.duplicates += outcome.duplicates.count
                stats.evicted += outcome.evicted.count
            }
            // Before `advance`: it may discard (and recycle) the segments the events are borrowed from.
            let group = PersistedGroup(batch.events)
            let count = batch.events.count
            journal.noteStored(batch.marks)
            advance(to: batch.next)
            didCommit(group, outcome, replaying: replaying)
            return .persisted(count)
        } catch {
            condition.withLock {
                stats.storeFailures += 1
                stats.lastError = "\(error)"
            }
            report(error)
            return .failed
        }
    }

    private func advance(to position: JournalPosition) {
        readCursor = position
        condition.withLock {
            committed = position
            condition.broadcast()
        }
        journal.discard(before: position)
    }

    /// Reports an error, at most once a second for the same text.
    func report(_ error: any Error) {
        guard let onError else { return }
        let text = "\(error)"
        let now = Date()
        let due: Bool = condition.withLock {
            if let last = lastReport, last.text == text, now.timeIntervalSince(last.time) < 1 { return false }
            lastReport = (text, now)
            return true
        }
        if due { onError(error) }
    }
}
