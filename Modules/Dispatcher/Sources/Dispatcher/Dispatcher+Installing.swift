import Foundation
import Tracking

// Putting a freshly opened backend in place, once every deletion for privacy asked for while it
// opened has been applied to it.
extension Dispatcher {
    /// Takes the deletions noted so far (with `marked`, what the marker file asks for) for an
    /// opening to apply; they stay in ``State/applyingErasure`` (and in the marker) until applied.
    func takeErasure(_ state: inout State, adding marked: PendingErasure) -> PendingErasure {
        state.pendingErasure.merge(marked)
        let taken = state.pendingErasure
        state.applyingErasure.merge(taken)
        state.pendingErasure = PendingErasure()
        return taken
    }

    /// Reports what opening `backend` found: a store set aside, a damaged journal, protection problems.
    func reportOpened(_ backend: DispatcherBackend) {
        if let recovered = backend.store.recoveredFrom {
            diagnose(.storage, "the store file was unreadable and was set aside as \(recovered); a fresh store was opened")
        }
        if !backend.ingest.journal.damage.isEmpty { diagnose(.storage, backend.ingest.journal.damage.description) }
        for problem in backend.store.takeProtectionProblems() + backend.ingest.journal.protectionProblems {
            diagnose(.storage, "data protection: \(problem)")
        }
    }

    /// Puts `backend` in place. The decision is taken under the state's lock, together with the
    /// check that no deletion was noted since the opening took them: one noted meanwhile is
    /// applied to `backend` first (with delivery rounds excluded), and the check repeated, so no
    /// event a deletion covers can be delivered. The marker file is removed once all are applied.
    /// The scheduler adopts the host's pause and reachability under the same lock.
    /// - Returns: whether the storage was unavailable before and whether a delivery is owed
    ///   (see ``State/deliveryOwed``); `nil` when this closed or was released for suspension
    ///   meanwhile (`backend` is not installed).
    /// - Throws: what applying a deletion threw; `backend` is closed then.
    func install(_ backend: DispatcherBackend) throws -> (wasUnavailable: Bool, owed: Bool)? {
        enum Step { case refused, installed(wasUnavailable: Bool, owed: Bool), erase(PendingErasure) }
        while true {
            let step = state.withLock { state -> Step in
                guard !state.closed, !state.suspended else { return .refused }
                if !state.pendingErasure.isEmpty { return .erase(takeErasure(&state, adding: PendingErasure())) }
                let wasUnavailable = state.storage != .available && state.storage != .opening
                if !state.applyingErasure.isEmpty { erasureMarker.remove() }
                state.applyingErasure = PendingErasure()
                // Under the lock, so that a pause() or resume() made after it reaches this scheduler later.
                backend.scheduler?.adopt(state.hold)
                let owed = state.deliveryOwed
                state.deliveryOwed = false
                state.backend = backend
                state.storage = .available
                state.waitsForProtectedData = false
                return .installed(wasUnavailable: wasUnavailable, owed: owed)
            }
            switch step {
            case .refused: return nil
            case .installed(let wasUnavailable, let owed): return (wasUnavailable, owed)
            case .erase(let pending):
                let path = configuration.storePath
                let result = Self.waitingFor {
                    await Self.apply(pending, to: backend, path: path)
                }
                if case .failure(let error) = result {
                    backend.scheduler?.cancelTimers()
                    _ = backend.ingest.close(timeout: 1)
                    backend.store.close()
                    throw error
                }
            }
        }
    }

    /// Applies `pending` to an open backend: every event (with its metadata) while no delivery
    /// round runs, then the held events of its categories.
    static func apply(_ pending: PendingErasure, to backend: DispatcherBackend, path: String) async -> Result<Void, any Error> {
        if pending.events {
            let metadata = pending.metadata
            let work: @Sendable () async -> Result<Void, any Error> = {
                await offload {
                    deleteSettled(on: backend, path: path, timeout: privacySettleTimeout) {
                        try backend.store.erase(keepingMetadata: !metadata)
                    }
                }
            }
            let erased = if let scheduler = backend.scheduler { await scheduler.excludingRounds(work) } else { await work() }
            if case .failure = erased { return erased }
        }
        guard !pending.heldCategories.isEmpty else { return .success(()) }
        return await offload { Result { try pending.deleteHeld(in: backend.ingest) } }
    }

    /// Runs `body` and waits for it on the calling thread: only on the Dispatcher's own queues
    /// (opening blocks), never on a thread of the concurrency pool.
    static func waitingFor(_ body: @escaping @Sendable () async -> Result<Void, any Error>) -> Result<Void, any Error> {
        let result = LockedValue<Result<Void, any Error>>(.success(()))
        let done = DispatchSemaphore(value: 0)
        LibraryTask.start {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }
}
