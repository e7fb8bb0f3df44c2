import Foundation
import Tracking

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
final class IngestWriter: Sendable {
    /// What the caller's side and the writer thread share (see ``State``).
    let state: LockedValue<State>

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
        state = LockedValue(State(committed: stored))
        var cursor = ReadCursor(position: stored)
        if journal.leftoverSegments > 0 {
            while case .persisted(let count) = persistNextBatch(&cursor, replaying: true) {
                state.withLock { $0.stats.replayed += count }
            }
        }
        // A group that failed is read again by the writer thread, from the same position.
        let position = cursor.position
        // The writer's loop is the one long job of a queue of its own.
        BlockingQueue(label: "Dispatcher.ingest").start { [self] in run(from: position) }
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
        var snapshot = state.withLock { $0.stats }
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
        state.withLockWakingWaiters { $0.stopping = true }
        journal.wakeConsumer()
        let (position, done) = state.withLock(when: \State.finished, deadline: deadline) { state, finished in
            (state.committed, finished)
        }
        journal.close()
        let drained = done && !journal.hasRecords(after: position)
        if drained { journal.discard(before: position, includingLast: true) }
        return drained
    }

    /// Stops the writer thread at once, persisting nothing more and cleaning nothing up, as if
    /// the process had died (tests).
    func simulateCrash() {
        state.withLockWakingWaiters {
            $0.crashed = true
            $0.stopping = true
        }
        journal.wakeConsumer()
        state.wait(until: \State.finished)
    }

    // MARK: The writer thread

    private enum Step {
        case persisted(Int)
        case idle
        case failed
    }

    private func run(from position: JournalPosition) {
        var cursor = ReadCursor(position: position)
        var retryDelay = configuration.retryInterval
        loop: while true {
            if state.withLock({ $0.crashed }) { break }
            checkFiles()
            journal.maintainPagesInBackground(consumed: cursor.position)
            // Read before the journal: a close asked for after this read finds every append made
            // before it (the caller's appends precede its close), so a pass that finds nothing
            // after it may stop. Read after, an append and a close could both fall between an
            // empty read and the check, and the event would stay in the journal.
            let stopRequested = state.withLock { $0.stopping }
            switch persistNextBatch(&cursor) {
            case .persisted:
                retryDelay = configuration.retryInterval
            case .idle:
                if stopRequested { break loop }
                journal.maintainPagesInBackground(consumed: cursor.position, force: true)
                // Idle costs nothing: asleep until an append, a wait for persistence or close
                // wakes it. The files are checked on the way (see `checkFiles`), not on a clock.
                journal.waitForRecords(after: cursor.position, timeout: nil)
                state.withLock { $0.idleWakeUps += 1 }
            case .failed:
                // Retried after `retryDelay`, or once more at once when asked to stop.
                if state.withLock({ $0.stopping }) { break loop }
                let deadline = Date(timeIntervalSinceNow: retryDelay)
                if state.withLock(when: \State.stopping, deadline: deadline, { state, _ in state.crashed }) { break loop }
                retryDelay = min(configuration.maxRetryInterval, retryDelay * 2)
            }
        }
        state.withLockWakingWaiters { $0.finished = true }
    }

    /// Reads the next group from the journal (or retries the one that failed) and commits it.
    /// - Parameter replaying: the group is what an earlier run left (see ``DeliveryRequest/replayed(_:)``).
    private func persistNextBatch(_ cursor: inout ReadCursor, replaying: Bool = false) -> Step {
        // Borrowed from a segment cut since: its bytes past the cut are zeros now; read it again.
        if let batch = cursor.pending, journal.wasCut(batch.segments) { cursor.pending = nil }
        if cursor.pending == nil {
            let batch = journal.readBorrowed(from: cursor.position, maxRecords: configuration.batchSize)
            if batch.skippedDamage {
                report(JournalError.io(path: journal.directory, operation: "read (damaged record skipped)", errno: EIO))
            }
            if batch.events.isEmpty {
                journal.noteStored(batch.marks)
                if batch.next != cursor.position { advance(&cursor, to: batch.next) }
                return .idle
            }
            cursor.pending = batch
        }
        guard let batch = cursor.pending else { return .idle }
        do {
            let outcome = try store.insert(batch.events, settingMetadata: [Self.positionKey: batch.next.description])
            cursor.pending = nil
            state.withLock {
                $0.stats.persisted += outcome.inserted
                $0.stats.duplicates += outcome.duplicates.count
                $0.stats.evicted += outcome.evicted.count
            }
            // Before `advance`: it may discard (and recycle) the segments the events are borrowed from.
            let group = PersistedGroup(batch.events)
            let count = batch.events.count
            journal.noteStored(batch.marks)
            advance(&cursor, to: batch.next)
            didCommit(group, outcome, replaying: replaying)
            return .persisted(count)
        } catch {
            state.withLock {
                $0.stats.storeFailures += 1
                $0.stats.lastError = "\(error)"
            }
            report(error)
            return .failed
        }
    }

    private func advance(_ cursor: inout ReadCursor, to position: JournalPosition) {
        cursor.position = position
        state.withLockWakingWaiters { $0.committed = position }
        journal.discard(before: position)
    }

    /// Reports an error, at most once a second for the same text.
    func report(_ error: any Error) {
        guard let onError else { return }
        let text = "\(error)"
        let now = Date()
        let due: Bool = state.withLock { state in
            if let last = state.lastReport, last.text == text, now.timeIntervalSince(last.time) < 1 { return false }
            state.lastReport = (text, now)
            return true
        }
        if due { onError(error) }
    }
}
