import Foundation
import Tracking

// Waiting for what was sent to reach the store, for a drain or a deletion for privacy.
extension IngestWriter {
    /// Waits until everything written before this call is committed to the store.
    /// - Parameters:
    ///   - timeout: the longest wait, or with `whileProgressing` the longest wait during which
    ///     the writer commits nothing.
    ///   - whileProgressing: wait as long as the writer commits something every `timeout`: a
    ///     backlog being written is waited for, a store that takes nothing is not.
    /// - Returns: `true` when it is, `false` when the wait gave up first.
    func waitUntilPersisted(timeout: TimeInterval, whileProgressing: Bool = false) -> Bool {
        let target = journal.endPosition
        if hasNotCommitted(target) { journal.wakeConsumer() } // no linger: someone is waiting
        var reached = state.withLock { $0.committed }
        while true {
            let deadline = Date(timeIntervalSinceNow: timeout)
            let (done, now) = state.withLock(when: { $0.committed >= target }, deadline: deadline) { state, done in
                (done, state.committed)
            }
            if done { break }
            // Gave up: no commit reached the target in time, and with `whileProgressing` none at all.
            guard whileProgressing, reached < now else { return false }
            reached = now
        }
        // Before saying it is persisted: the store file it went to must still be there.
        checkFiles(force: true)
        return true
    }

    /// Removes every journal file holding only records the store already has
    /// (``EventJournal/scrub(before:)``): what the store deleted for privacy is not left readable
    /// in the journal's folder.
    func scrubJournal() {
        journal.scrub(before: state.withLock { $0.committed })
    }

    func hasNotCommitted(_ target: JournalPosition) -> Bool {
        state.withLock { $0.committed < target }
    }
}
