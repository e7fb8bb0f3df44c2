import Foundation
import Tracking

extension Dispatcher {
    /// Gives up every file lock and closes the store before the app is suspended, and returns
    /// whether everything sent so far was persisted first.
    ///
    /// **The rule (iOS):** a process suspended while it holds a file lock in an App Group
    /// container is killed by the system (exception `0xdead10cc`). So while the app is
    /// suspended, the Dispatcher holds no file lock (neither the store's `<store>.lock` nor
    /// SQLite's locks on the database and its `-shm`) and no SQLite transaction is open. Call
    /// this last in `didEnterBackground`, after ``drain(timeout:isolation:)``, inside the background task,
    /// and ``resumeStorageAfterSuspension(isolation:)`` on `willEnterForeground`.
    ///
    /// It stops delivery (waiting at most `timeout` for a request in flight: its events stay in
    /// flight in the store and are retried after resuming), persists what the journal holds, then
    /// closes the store and its lock. Events sent while released are not lost: they wait in
    /// memory, up to ``BatchConfiguration/overflowQueueSize`` (as while the store cannot be
    /// opened), and are persisted once the storage is taken back. ``storage`` says
    /// `unavailable: released for suspension` meanwhile, and no retry timer re-opens the store;
    /// ``drain(timeout:isolation:)`` delivers nothing, and ``close(timeout:isolation:)``
    /// closes without persisting what waits in memory (resume first).
    /// - Parameters:
    ///   - timeout: the longest to wait for delivery to stop, then for the journal to be persisted.
    ///   - isolation: the caller's actor, where the call returns; the compiler passes it.
    /// - Returns: whether the journal was fully persisted before the store closed (`false` after
    ///   a timeout; what was not persisted stays in the journal's files for the next open).
    @discardableResult
    public func releaseStorageForSuspension(timeout: TimeInterval = 5, isolation: isolated (any Actor)? = #isolation) async -> Bool {
        return await LibraryTask.run {
            let (backend, timer) = state.withLock { state -> (DispatcherBackend?, LibraryTimer?) in
                guard !state.closed, !state.suspended else { return (nil, nil) }
                state.suspended = true
                defer {
                    state.backend = nil
                    state.reopenTimer = nil
                    state.storage = .unavailable(reason: Self.releasedReason)
                }
                return (state.backend, state.reopenTimer)
            }
            timer?.cancel()
            guard let backend else { return true }
            diagnose(.storage, "storage released for suspension: no file lock is held until resumed; events sent meanwhile wait in memory (up to \(overflow.capacity))")
            if let scheduler = backend.scheduler { _ = await withTimeout(timeout) { await scheduler.close() } }
            let persisted = await Self.offload {
                let persisted = backend.ingest.close(timeout: timeout)
                backend.store.close()
                return persisted
            }
            // The first events of the run stay counted when the storage is taken back.
            if let demand = backend.scheduler?.demand { state.withLock { state in state.demand = demand } }
            return persisted
        }
    }

    /// Takes the storage back after ``releaseStorageForSuspension(timeout:isolation:)`` (call it on
    /// `willEnterForeground`), and returns the resulting ``storage`` state: the store is opened
    /// again and its lock re-taken, what the journal kept is replayed, events sent meanwhile move
    /// from memory into it, and delivery restarts. When another writer took the store meanwhile
    /// (an app extension), it is handled as at start, without losing anything: the storage stays
    /// unavailable, events keep waiting in memory, and opening is retried every
    /// ``DispatcherConfiguration/storageRetryInterval`` until that writer lets go.
    @discardableResult
    public func resumeStorageAfterSuspension(isolation: isolated (any Actor)? = #isolation) async -> StorageState {
        return await LibraryTask.run {
            let resumed = state.withLock { state in
                guard state.suspended, !state.closed else { return false }
                state.suspended = false
                return true
            }
            guard resumed else { return storage }
            return await reopenQueue.run { [self] in
                if (try? openBackend()) != true, !isClosed { scheduleReopen() }
                return storage
            }
        }
    }

    /// The ``StorageState/unavailable(reason:)`` text while released for suspension.
    static let releasedReason = "released for suspension"
}
