import Foundation

extension EventJournal {
    /// Everything appends, the consumer and the page work share, in ``EventJournal/state``; the
    /// writable fields of its segments (`end`, `sealed`, `nextSequence`, …) are changed only
    /// inside that lock too. Waiters wait on it for records (the consumer) or for the segment
    /// being made ahead (an append).
    struct State: Sendable {
        /// The folder holding the segment files.
        let directory: String
        /// Segment size and count bound.
        let configuration: JournalConfiguration
        /// The live segments, oldest first; appends go to the last.
        var segments: [JournalSegment] = []
        /// The next segment, made ahead of time by the page work.
        var spare: JournalSegment?
        /// The number of the segment the page work is making, if any.
        var preparing: UInt64?
        /// The number the next segment gets.
        var nextNumber: UInt64
        /// Events appended since the journal was opened.
        var appended = 0
        /// What the consumer is doing, as far as appends are concerned.
        var consumer = ConsumerState.running
        /// `appended` when the consumer started its current wait: what it has not consumed is counted from here.
        var lingerBase = 0
        /// How many times an append woke the consumer (tests and diagnostics).
        var wakeUpCount = 0
        /// ``EventJournal/wakeConsumer()`` was called: the consumer's wait ends.
        var wakeRequested = false
        /// ``EventJournal/close()`` was called: appends fail with ``JournalError/closed``.
        var isClosed = false
        /// The capacity of the live segments, against ``JournalConfiguration/maxBytes``.
        var liveBytes = 0
        /// After a failed segment creation: no new attempt before this moment.
        var creationPausedUntil: Date?
        /// Failed segment creations in a row.
        var creationFailures = 0
        /// The error of the last failed segment creation, thrown again during the pause.
        var lastCreationError: JournalError?
        /// After a failed ahead-of-time creation: no new one before this moment.
        var preparePausedUntil: Date?
        /// Consumed segment files waiting to be reused (see ``JournalSegment/reuse(_:directory:number:capacity:)``),
        /// at most ``EventJournal/maxFreeFiles``; beyond the byte budget, as they hold no records.
        var freeFiles: [String] = []
        /// Whether a ``EventJournal/maintainPagesInBackground(consumed:force:)`` is queued and has not started.
        var pageWorkQueued = false
        /// The consumer's committed position, as of its last ``EventJournal/maintainPagesInBackground(consumed:force:)``.
        var consumedPosition = JournalPosition.start
        /// `appended` when page work was last queued.
        var pageWorkAppended = 0
        /// Whether the consumer hands the page work to ``EventJournal/pageQueue`` (it called
        /// ``EventJournal/maintainPagesInBackground(consumed:force:)``): appends then queue it too.
        var pageWorkInBackground = false
        /// What the journal noticed about its own files while running (a segment deleted, cut short or
        /// made unwritable, the folder recreated), waiting for the owner to report (``EventJournal/takeNotices()``).
        var notices: [String] = []
        /// Records lost while running, by cause (a segment cut short under the journal).
        var lossesWhileRunning: [JournalLossCause: Int] = [:]
        /// When an append last checked the active segment's file (``CoarseClock`` nanoseconds).
        var lastFileCheck: UInt64 = 0
    }

    /// What the consumer is doing, as far as appends are concerned.
    enum ConsumerState: Sendable {
        /// Not waiting: appends need not wake it.
        case running
        /// Waiting with nothing to read: the next append wakes it.
        case sleeping
        /// Waiting for more records to gather: appends wake it only when many are waiting.
        case lingering
    }
}
