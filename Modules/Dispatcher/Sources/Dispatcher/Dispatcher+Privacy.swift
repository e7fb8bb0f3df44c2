import Foundation
import Tracking

/// Consent, opt-out and purge, as the store sees them.
///
/// A deletion here is final once the call returns: the rows are gone, their content is
/// overwritten in the SQLite file (`secure_delete`) and its write-ahead log is emptied, and the
/// journal files that held them are removed. ``purge(isolation:)`` and ``deleteAllEvents()`` also exclude
/// delivery while they run: the request in flight, if any, is cancelled and awaited, and the batch
/// claimed ahead of it is released unsent, so no event stored before the call is sent after it.
extension Dispatcher {
    /// Releases the events of `category` held for consent: they become pending and are delivered.
    /// - Returns: how many were released.
    @discardableResult
    public func releaseHeld(category: String, isolation: isolated (any Actor)? = #isolation) async throws -> Int {
        return try await LibraryTask.run {
            if isOpening { await storageReady() }
            guard let backend else { return 0 }
            let released = try await Self.offload { () -> Result<Int, any Error> in
                _ = backend.ingest.waitUntilPersisted(timeout: Self.privacySettleTimeout, whileProgressing: true)
                return Result { try backend.store.releaseHeld(category: category) }
            }.get()
            backend.scheduler?.request(.caller(events: released))
            return released
        }
    }

    /// Deletes the events of `category` held for consent (consent was denied); before it returns
    /// their content is overwritten on disk and the journal files that held them are removed.
    /// Held events are never claimed for delivery, so none of them is in flight.
    /// - Returns: how many were deleted.
    @discardableResult
    public func deleteHeld(category: String, isolation: isolated (any Actor)? = #isolation) async throws -> Int {
        return try await LibraryTask.run {
            guard let backend = await backendErasing({ $0.heldCategories.insert(category) }) else { return 0 }
            let path = configuration.storePath
            return try await Self.offload {
                Self.deleteSettled(on: backend, path: path, timeout: Self.privacySettleTimeout) {
                    try backend.store.deleteHeld(category: category)
                }
            }.get()
        }
    }

    /// Deletes every stored event, the timeline, what waits in memory and the store's metadata
    /// (identifiers, session, privacy state). Returns once they are gone from the disk; no event
    /// stored before the call is sent afterwards (see the type's notes on delivery). While the
    /// store is being opened this waits for the opening, which applies it first; while the store
    /// is unavailable or released for suspension it returns once the deletion is saved beside the
    /// store, and the next opening (in this process or a later one) applies it before the store
    /// is used or anything is delivered. The same holds for ``deleteAllEvents(before:isolation:)`` and
    /// ``deleteHeld(category:isolation:)``.
    /// - Throws: ``StoreError/notErased(path:cause:)`` when events sent before the call were still
    ///   only in the journal, the store taking none for 10 s (locked or failing): they were not erased.
    public func purge(isolation: isolated (any Actor)? = #isolation) async throws {
        try await LibraryTask.run { try await erase(keepingMetadata: false) }
    }

    /// Deletes every stored event (pending, held, in flight, rejected, the delivered history),
    /// the timeline and what waits in memory, keeping the metadata: what opt-out does. Returns
    /// once they are gone from the disk; no event stored before the call is sent afterwards.
    /// - Parameters:
    ///   - boundary: when given, only events whose id precedes it are deleted. Event ids are
    ///     time-ordered (`EventID.make()` is greater than every id made before it), so an id
    ///     made at the moment of a decision separates the events sent before it from later ones.
    ///   - isolation: the caller's actor, where the call returns; the compiler passes it.
    public func deleteAllEvents(before boundary: UUID? = nil, isolation: isolated (any Actor)? = #isolation) async throws {
        try await LibraryTask.run { try await erase(keepingMetadata: true, before: boundary) }
    }

    /// How long a deletion waits for the journal's events to reach the store, where it deletes
    /// them, without the writer making progress (a backlog being written is waited for).
    static let privacySettleTimeout: TimeInterval = 10

    /// The error of a deletion that could not reach the events still only in the journal.
    private static func notErased(_ path: String, after seconds: TimeInterval) -> StoreError {
        .notErased(path: path, cause: "events sent before the call were still in the journal, and the store "
                   + "took none of them for \(seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)) s")
    }

    /// Deletes the events (every one, or those before `boundary`), waiting at most `settleTimeout`
    /// for the journal's to reach the store first.
    /// - Throws: ``StoreError/notErased(path:cause:)`` when some were still only in the journal.
    func erase(keepingMetadata: Bool, before boundary: UUID? = nil, settleTimeout: TimeInterval = privacySettleTimeout) async throws {
        overflow.removeAll()
        timeline.removeAll()
        guard let backend = await backendErasing({ pending in
            pending.events = true
            pending.metadata = pending.metadata || !keepingMetadata
        }) else { return }
        let path = configuration.storePath
        let work: @Sendable () async -> Result<Void, any Error> = {
            await Self.offload {
                Self.deleteSettled(on: backend, path: path, timeout: settleTimeout) {
                    try backend.store.erase(keepingMetadata: keepingMetadata, before: boundary)
                }
            }
        }
        guard let scheduler = backend.scheduler else { return try await work().get() }
        try await scheduler.excludingRounds(work).get()
    }

    /// Runs `delete` once the journal's events reached the store (waiting while the writer makes
    /// progress, at most `timeout` without any), then removes the journal files holding what the
    /// store has. Fails with ``notErased(_:after:)`` when the wait gave up.
    static func deleteSettled<Value>(on backend: DispatcherBackend, path: String, timeout: TimeInterval,
                                             _ delete: () throws -> Value) -> Result<Value, any Error> {
        let settled = backend.ingest.waitUntilPersisted(timeout: timeout, whileProgressing: true)
        let deleted = Result { try delete() }
        backend.ingest.scrubJournal()
        return deleted.flatMap { settled ? .success($0) : .failure(notErased(path, after: timeout)) }
    }

    /// The open backend to delete from. When the storage is not open, `ask` is noted instead,
    /// in memory and in the marker file beside the store (see `ErasureMarker`), for the opening
    /// under way or the next one (in this process or the next) to apply before the store is put
    /// in place and before anything is delivered; an opening under way is waited for. `nil` when
    /// the deletion was noted. Decided under one lock with the opening's installation: a deletion
    /// is either applied to the backend returned or noted while none is in place.
    private func backendErasing(_ ask: (inout PendingErasure) -> Void) async -> DispatcherBackend? {
        let (backend, opening, unsaved) = state.withLock { state -> (DispatcherBackend?, Bool, (any Error)?) in
            if let backend = state.backend { return (backend, false, nil) }
            ask(&state.pendingErasure)
            var marked = state.applyingErasure
            marked.merge(state.pendingErasure)
            let unsaved = Result { try erasureMarker.write(marked) }.failure
            return (nil, state.storage == .opening, unsaved)
        }
        if let backend { return backend }
        if let unsaved {
            diagnose(.storage, "a deletion for privacy waits for the store in memory only (a restart before it opens forgets it): \(unsaved)")
        }
        if opening { await storageReady() }
        return nil
    }
}

extension Result {
    /// The error, when this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
