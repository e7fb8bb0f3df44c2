import Foundation
import Tracking

// Opening the storage on a queue of the Dispatcher's own (``DispatcherConfiguration/opensStorageInBackground``).
extension Dispatcher {
    /// Test seam: run on the opening queue just before a store opened in the background is
    /// opened, with the value set when the Dispatcher was made (a test holds the opening there).
    @TaskLocal static var beforeBackgroundOpen: (@Sendable () -> Void)?
    /// Test seam: run on the opening queue once a store opened in the background is open, just
    /// before it is put in place, with the value set when the Dispatcher was made.
    @TaskLocal static var beforeBackgroundInstall: (@Sendable () -> Void)?

    /// Claims the store at once (refusing what `init` refuses), then opens it on ``reopenQueue``:
    /// ``storage`` is ``StorageState/opening`` until that ends. A claim that fails for another
    /// reason (protected data before the first unlock, a folder that cannot be made) is reported
    /// as an open that failed, and retried.
    /// - Throws: ``StoreError/inUse(path:pid:)`` and ``StoreError/notAStore(path:reason:)``.
    func startOpeningInBackground() throws {
        let claim: StoreClaim
        do {
            claim = try EventStore.claim(path: configuration.storePath)
        } catch {
            if case StoreError.inUse = error { throw error }
            if case StoreError.notAStore = error { throw error }
            // The same error again, through the path that reports it and decides on protected data.
            if try !openBackend(refusingInUse: true) { scheduleReopen() }
            return
        }
        state.withLock { $0.storage = .opening }
        let hold = Self.beforeBackgroundOpen
        let holdInstall = Self.beforeBackgroundInstall
        reopenQueue.start { [self] in
            hold?()
            let opened = (try? openBackend(claim: claim, beforeInstall: holdInstall)) == true
            if !opened, !isClosed { scheduleReopen() }
        }
    }

    /// Waits for the opening of the storage under way, if any (see
    /// ``DispatcherConfiguration/opensStorageInBackground``), and returns ``storage``:
    /// ``StorageState/available`` once the store, its journal and delivery are ready. Unlike
    /// ``retryOpeningStorage(isolation:)`` it tries nothing itself.
    @discardableResult
    public func storageReady(isolation: isolated (any Actor)? = #isolation) async -> StorageState {
        await LibraryTask.run { await reopenQueue.run { [self] in storage } }
    }

    /// Whether the storage is being opened in the background.
    var isOpening: Bool { storage == .opening }
}
