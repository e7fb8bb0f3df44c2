import Foundation
import Tracking

// The page work: the file and page system calls the appends must not pay, on a queue of its own.
extension EventJournal {
    /// The consumer's file and page work, on a queue of its own, at most one queued at a time: the
    /// next segment made ahead of time (``prepareNextSegment()``), pages ahead of the sender made
    /// resident (``populateAhead()``), pages written and pages read before `consumed` handed back
    /// (``releaseWrittenPages()``, ``JournalSegment/releaseRead(below:)``). Those system calls
    /// cost about a tenth of the consumer's time per event, which another core can spend instead.
    /// For a journal whose consumer calls this, the page work runs only there (or, for a segment
    /// not yet visible to appends, where the segment is made), so each segment's marks have one
    /// writer.
    ///
    /// Work is queued once ``pageWorkRecords`` records were appended since the last time, when the
    /// consumer moved to another segment, or with `force` (the consumer going idle): each queued
    /// block wakes a thread, which on a small machine takes the consumer's core for a moment.
    /// Once the consumer has called this, appends queue the same work themselves when the sender
    /// runs ahead of the consumer (see ``State/claimPageWorkForAppend()``).
    func maintainPagesInBackground(consumed: JournalPosition, force: Bool = false) {
        let queue: Bool = state.withLock { state in
            state.pageWorkInBackground = true
            let due = force || state.appended - state.pageWorkAppended >= Self.pageWorkRecords
                || consumed.segment != state.consumedPosition.segment
            state.consumedPosition = consumed
            return state.claimPageWork(if: due)
        }
        if queue { queuePageWork() }
    }

    /// Queues one round of the page work, claimed under the lock (`pageWorkQueued` set), on
    /// ``pageQueue``: one at a time, so each segment's marks keep one writer.
    func queuePageWork() {
        pageQueue.async { [self] in
            let (consumed, current): (JournalPosition, JournalSegment?) = state.withLock { state in
                state.pageWorkQueued = false
                let consumed = state.consumedPosition
                return (consumed, state.segments.first { $0.number == consumed.segment })
            }
            checkActiveSegment()
            prepareNextSegment()
            populateAhead()
            releaseWrittenPages()
            current?.releaseRead(below: consumed.offset)
        }
    }
}

extension EventJournal.State {
    /// Whether the append just counted is to queue the page work itself, claiming it: when the
    /// consumer hands its page work to the background (``EventJournal/maintainPagesInBackground(consumed:force:)``),
    /// none is queued, and half of ``EventJournal/pageWorkRecords`` records were appended since
    /// the last round. The consumer queues its rounds between batches; a sender running ahead of
    /// it would otherwise outrun the pages made resident (``JournalSegment/runway``) and pay a
    /// page fault every few dozen sends.
    mutating func claimPageWorkForAppend() -> Bool {
        claimPageWork(if: pageWorkInBackground && appended - pageWorkAppended >= EventJournal.pageWorkRecords / 2)
    }

    /// Claims a round of the page work when it is `due`, none is queued and the journal is open.
    mutating func claimPageWork(if due: Bool) -> Bool {
        guard due, !pageWorkQueued, !isClosed else { return false }
        pageWorkQueued = true
        pageWorkAppended = appended
        return true
    }
}
