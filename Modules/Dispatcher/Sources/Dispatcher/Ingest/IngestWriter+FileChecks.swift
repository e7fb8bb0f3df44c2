import Foundation
@_spi(Clocks) import Tracking

// Checking that the files events go to are still there: the store file and its log, the journal's
// segments. Never per event: at most every ``fileCheckInterval`` on the writer thread, and
// before a wait for persistence returns.
extension IngestWriter {
    /// The shortest time between two checks by the writer thread.
    static let fileCheckInterval: TimeInterval = 0.25

    /// Checks the store's files (recreating a store deleted or replaced while open, counting what
    /// it held as lost) and reports what the journal noticed about its own files (see
    /// ``EventJournal/checkActiveSegment()``), when ``fileCheckInterval`` passed since the last
    /// check or with `force`.
    func checkFiles(force: Bool = false) {
        let now = TimeInterval(CoarseClock.nanoseconds()) / 1_000_000_000
        let due: Bool = state.withLock { state in
            guard force || now - state.lastFileCheck >= Self.fileCheckInterval else { return false }
            state.lastFileCheck = now
            return true
        }
        guard due else { return }
        journal.checkActiveSegment()
        for notice in journal.takeNotices() { report(notice) }
        guard let vanished = store.recreateIfVanished() else { return }
        state.withLock {
            $0.stats.lostWithStore += vanished.lost
            $0.stats.lastError = vanished.description
        }
        report(vanished)
    }
}
