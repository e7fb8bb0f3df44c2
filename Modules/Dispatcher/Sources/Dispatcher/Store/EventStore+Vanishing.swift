import Foundation
import Tracking

/// The store's file deleted or replaced while it was open (see ``EventStore/recreateIfVanished()``).
struct StoreVanishing: Error, Sendable, CustomStringConvertible {
    /// The store file.
    var path: String
    /// Whether the store file itself went (its events with it), rather than only its write-ahead log.
    var storeFileGone: Bool
    /// The events the vanished file held (pending, in flight, rejected and held), now lost.
    var lost: Int
    /// Why the new store could not be opened at once, if so (opening is retried by the next write).
    var reopenError: String?

    /// One sentence for the diagnostics.
    var description: String {
        let what = storeFileGone
            ? "the store file \(path) was deleted or replaced while open: the \(lost) event\(lost == 1 ? "" : "s") it held are lost"
            : "the write-ahead log of \(path) was deleted or replaced while open: its events were kept (checkpointed), nothing lost"
        return what + (reopenError.map { "; a new store could not be opened yet: \($0)" } ?? "; a new store file was created")
    }
}

extension EventStore {
    /// Checks, with two `stat` calls, that the store file and its write-ahead log are still the
    /// files this store has open, and when one was deleted or replaced, closes the connection
    /// and opens a new store at ``path`` (made as at first start: folder 0700, file 0600,
    /// signature, lock file taken again if it went too).
    ///
    /// A log deleted alone loses nothing: closing checkpoints the open log into the store file.
    /// A store file deleted or replaced takes the events it held with it: they are counted in
    /// ``StoreVanishing/lost``. Called by the ingest writer at most every few hundred
    /// milliseconds and before a wait for persistence returns, never per event.
    /// - Returns: what vanished, or `nil` when the files are intact (or the store is closed or read-only).
    func recreateIfVanished() -> StoreVanishing? {
        guard !isReadOnly else { return nil }
        return state.withLock { state in
            guard let open = state.database, !state.closedByUser else { return nil }
            let storeGone = state.openedFiles.store.map { !$0.isSameFile(as: FileIdentity(path: path)) } ?? false
            let logNow = FileIdentity(path: path + "-wal")
            guard let log = state.openedFiles.log else {
                state.openedFiles.log = logNow
                return storeGone ? recreateLocked(open, storeGone: true, &state) : nil
            }
            guard storeGone || !log.isSameFile(as: logNow) else { return nil }
            return recreateLocked(open, storeGone: storeGone, &state)
        }
    }

    private func recreateLocked(_ open: SQLiteDatabase, storeGone: Bool, _ state: inout State) -> StoreVanishing {
        let lost = storeGone ? state.counters.total : 0
        open.close()
        state.database = nil
        state.counters = StoreCounts()
        state.openedFiles = (nil, nil)
        if FileIdentity(path: path + ".lock") == nil {
            state.writerLock?.release()
            state.writerLock = try? StoreLock(storePath: path)
        }
        var reopenError: String?
        do { try openLocked(&state) } catch { reopenError = "\(error)" }
        return StoreVanishing(path: path, storeFileGone: storeGone, lost: lost, reopenError: reopenError)
    }
}
