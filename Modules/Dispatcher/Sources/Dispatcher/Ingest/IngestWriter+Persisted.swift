import Foundation

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
        var deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var reached = committed
        while committed < target {
            if condition.wait(until: deadline) { continue }
            guard whileProgressing, reached < committed else { return committed >= target }
            reached = committed
            deadline = Date(timeIntervalSinceNow: timeout)
        }
        condition.unlock()
        // Before saying it is persisted: the store file it went to must still be there.
        checkFiles(force: true)
        condition.lock()
        return true
    }

    /// Removes every journal file holding only records the store already has
    /// (``EventJournal/scrub(before:)``): what the store deleted for privacy is not left readable
    /// in the journal's folder.
    func scrubJournal() {
        journal.scrub(before: condition.withLock { committed })
    }

    func hasNotCommitted(_ target: JournalPosition) -> Bool {
        condition.withLock { committed < target }
    }
}
