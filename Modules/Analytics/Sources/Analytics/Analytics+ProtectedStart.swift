import DataQuality
@_spi(Tasks) import Dispatcher
import Foundation
import Tracking

extension Analytics {
    /// The stages every reporter runs: the stack's, or the gate keeping events waiting while the store
    /// cannot be read yet (it forwards to the real stack's stages once it opens).
    var processors: [any EventProcessor] { gate.isOpen ? gate.stack.processors : [gate] }

    /// Identifiers, session and privacy state live in the Dispatcher's identity record, in the
    /// store: one file to purge.
    static func identityStore(of dispatcher: Dispatcher) -> any IdentityStore {
        ClosureIdentityStore(
            get: { try? dispatcher.savedIdentity($0) },
            set: { try dispatcher.saveIdentity($1, for: $0) },
            remove: { try dispatcher.saveIdentity(nil, for: $0) })
    }

    /// Applies `stack`'s privacy changes to the stored events, starting with its saved state
    /// (a decision saved by a process that died before applying it is applied now). With the
    /// `boot` strategy, what an earlier run left is delivered only after that: an opt-out saved
    /// by a process killed before its deletion never lets those events leave.
    func watchPrivacy(of stack: DataQualityStack) {
        let bridge = self.bridge
        let gate = self.gate
        let privacy = stack.privacy
        let token = privacy.observe { change in
            // Events waiting for the store were sent before the decision: they go with the rest.
            if change == .optedOut || change == .purged { gate.discardWaiting() }
            bridge.apply(change)
        }
        watchers.add { privacy.removeObserver(token) }
        bridge.reconcile(privacy)
        if configuration.strategies.contains(.boot) {
            bridge.afterChanges { [dispatcher] in dispatcher.requestDelivery() }
        }
    }

    /// Finishes a start made before the store could be read, once it opened: what the app
    /// changed meanwhile is written to the store, the real stack is built over it (reading the
    /// stored identity, session and privacy state), and the waiting events go through it.
    func completeStart(recipe: StackRecipe, provisional: ProvisionalIdentityStore, location: StoreLocation?, protected: Bool) {
        let store = Self.identityStore(of: dispatcher)
        let diagnostics = recipe.diagnostics
        // From here until the real stack is installed, callers of `quality` wait for it: a change
        // made on the provisional stack after its replay would be lost.
        gate.beginSwitch()
        for problem in provisional.replay(onto: store) {
            diagnostics.record(.storage, code: "identity_provisional", message: problem)
        }
        if let problem = (location ?? .current).excludeFromBackup() { diagnostics.record(.storage, code: "backup", message: problem) }
        let stack = recipe.make(store: store)
        watchPrivacy(of: stack)
        gate.whileSwitching.withLock { $0 }?()
        let plugins = self.plugins
        let handed = gate.open(with: stack) { event in
            for plugin in plugins { _ = plugin.send(event) }
        }
        let refused = gate.refusedCount
        if !protected, refused == 0 { return }
        diagnostics.record(.storage, code: protected ? "protected_data" : "start", message: "the store opened: \(handed) events kept waiting since the start went through the stages"
            + (refused > 0 ? "; \(refused) were refused, the waiting queue being full" : ""))
    }

    /// Whether events wait because the store could not be read yet.
    var isWaitingForStorage: Bool { !gate.isOpen }

    /// Waits until the store opened at start is ready and the events sent meanwhile went through
    /// the stages, and returns the storage state. `init` returns before the store is open (it
    /// opens off the caller's thread; events sent meanwhile wait in memory, in order, up to
    /// `BatchConfiguration.overflowQueueSize`: a sender finding them full waits up
    /// to 10 s for the open, then its event is refused and counted; a process that dies before
    /// the open loses what waits): this is the way to know it is. Returns at once when it
    /// already is, and, without waiting, `unavailable` when the store cannot be opened now
    /// (it is retried; see ``diagnostics``).
    @discardableResult
    public func ready(isolation: isolated (any Actor)? = #isolation) async -> StorageState {
        return await LibraryTask.run {
            let storage = await dispatcher.storageReady()
            if storage == .available { await started.wait() }
            return dispatcher.storage
        }
    }

    /// Whether the store is being opened at start, or opened and the start not yet completed:
    /// reading the identity or the privacy state then waits for it (see ``awaitStart()``).
    var isStarting: Bool {
        guard started.isPending else { return false }
        let storage = dispatcher.storage
        return storage == .opening || storage == .available
    }

    /// Blocks until the start completes when the store is being opened (at most 10 s), so that
    /// the identity and privacy state read are the stored ones, not provisional ones. Stops
    /// waiting as soon as the open fails (the provisional state is then read).
    func awaitStart() {
        let deadline = Date(timeIntervalSinceNow: 10)
        while true {
            // Read before `isStarting`: a failure reported after it wakes the wait below.
            let fired = started.fireCount
            guard isStarting, Date() < deadline else { return }
            if started.wait(until: deadline, orFiredAfter: fired) { return }
        }
    }
}
