import DataQuality
import Dispatcher
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
        let privacy = stack.privacy
        let token = privacy.observe { change in bridge.apply(change) }
        watchers.add { privacy.removeObserver(token) }
        bridge.reconcile(privacy)
        if configuration.strategies.contains(.boot) {
            bridge.afterChanges { [dispatcher] in dispatcher.requestDelivery() }
        }
    }

    /// Finishes a start made before the store could be read, once it opened: what the app
    /// changed meanwhile is written to the store, the real stack is built over it (reading the
    /// stored identity, session and privacy state), and the waiting events go through it.
    func completeStart(recipe: StackRecipe, provisional: ProvisionalIdentityStore, location: StoreLocation) {
        let store = Self.identityStore(of: dispatcher)
        let diagnostics = recipe.diagnostics
        for problem in provisional.replay(onto: store) {
            diagnostics.record(.storage, code: "identity_provisional", message: problem)
        }
        if let problem = location.excludeFromBackup() { diagnostics.record(.storage, code: "backup", message: problem) }
        let stack = recipe.make(store: store)
        watchPrivacy(of: stack)
        let plugins = self.plugins
        let handed = gate.open(with: stack) { event in
            for plugin in plugins { _ = plugin.send(event) }
        }
        let refused = gate.refusedCount
        diagnostics.record(.storage, code: "protected_data", message: "the store opened: \(handed) events kept waiting since the start went through the stages"
            + (refused > 0 ? "; \(refused) were refused, the waiting queue being full" : ""))
    }

    /// Whether events wait because the store could not be read yet.
    var isWaitingForStorage: Bool { !gate.isOpen }
}
