import Foundation
import Tracking

// Leaving no consumed record readable (after a privacy deletion in the store).
extension EventJournal {
    /// Removes every file of the folder that holds records before `position` (which the store
    /// has), instead of keeping it for reuse: the active segment is sealed (later appends start a
    /// new file), every segment whose records all come before `position` is deleted, and so are
    /// the files waiting for reuse and the spare segment (a reused file keeps the bytes of its
    /// earlier records past its new ones). A segment still holding records after `position`
    /// stays, as the writer has not read them yet.
    func scrub(before position: JournalPosition) {
        let (consumed, free, unused): ([JournalSegment], [String], JournalSegment?) = state.withLock { state in
            state.segments.last?.sealed = true
            var consumed: [JournalSegment] = []
            while let first = state.segments.first,
                  first.number < position.segment || (first.number == position.segment && first.end <= position.offset) {
                let segment = state.segments.removeFirst()
                state.liveBytes -= segment.capacity
                consumed.append(segment)
            }
            defer {
                state.freeFiles = []
                state.spare = nil
            }
            return (consumed, state.freeFiles, state.spare)
        }
        for segment in consumed { segment.remove() }
        unused?.remove()
        for path in free { unlink(path) }
    }
}
