import Foundation
import Tracking

/// Opt-out, consent per event category, and purge: locked, persisted through an ``IdentityStore``.
///
/// Changes take effect at once for every `PrivacyGate` reading these controls, and
/// observers (the Dispatcher) are told, so that held events are released or deleted and the
/// store is purged.
///
/// ```swift
/// let privacy = PrivacyControls(store: store, consentCategories: ["Marketing"])
/// privacy.observe { change in dispatcher.handle(change) }
/// privacy.setConsent(.granted, for: "Marketing")
/// ```
public final class PrivacyControls: Sendable {
    /// The keys used in the ``IdentityStore``.
    enum Key {
        /// `"true"` while opted out.
        static let optedOut = "privacy.optedOut"
        /// The prefix of each category's consent: `privacy.consent.<category>`.
        static let consentPrefix = "privacy.consent."
        /// The categories given a decision at run time, as a JSON array, so that they are
        /// restored even when the configuration does not list them.
        static let knownCategories = "privacy.consentCategories"
    }

    /// Opt-out, the consent decisions and the observers.
    private struct State {
        var optedOut: Bool
        var decisions: [String: ConsentDecision]
        var requiring: Set<String> { didSet { requiringLengths = PrivacyControls.lengths(of: requiring) } }
        /// The UTF-8 lengths of the categories in `requiring`: most categories are found not to
        /// need consent without being hashed.
        var requiringLengths: LengthMask
        var observers = ObserverRegistry<PrivacyChange>()
    }

    private let store: any IdentityStore
    private let diagnostics: Diagnostics?
    private let state: LockedValue<State>

    /// Restores the privacy state saved in `store`.
    /// - Parameters:
    ///   - store: where opt-out and consent persist.
    ///   - consentCategories: event categories whose events wait for consent.
    ///   - diagnostics: where write failures are reported.
    public init(store: any IdentityStore, consentCategories: Set<String> = [], diagnostics: Diagnostics? = nil) {
        self.store = store
        self.diagnostics = diagnostics
        var requiring = consentCategories
        let optedOut = store.value(forKey: Key.optedOut) == "true"
        let remembered = store.value(forKey: Key.knownCategories)
            .flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        requiring.formUnion(remembered)
        var decisions: [String: ConsentDecision] = [:]
        for category in requiring {
            if let saved = store.value(forKey: Key.consentPrefix + category).flatMap(ConsentDecision.init(rawValue:)) {
                decisions[category] = saved
            }
        }
        state = LockedValue(State(optedOut: optedOut, decisions: decisions, requiring: requiring,
                                  requiringLengths: Self.lengths(of: requiring)))
    }

    /// Whether the user opted out.
    public var isOptedOut: Bool { state.withLock { $0.optedOut } }

    /// The event categories that need consent.
    public var consentCategories: Set<String> { state.withLock { $0.requiring } }

    /// Opts out: from now on no event is stored, and observers are told (the runtime then
    /// deletes the queued events, so nothing leaves the device). Persisted.
    public func optOut() { setOptedOut(true) }

    /// Opts back in. Persisted.
    public func optIn() { setOptedOut(false) }

    /// What is known about consent for `category`.
    public func consent(for category: String) -> ConsentDecision { admission(for: category).consent }

    /// Whether the user opted out, and what is known about consent for `category`, read
    /// together under one lock.
    func admission(for category: String) -> (optedOut: Bool, consent: ConsentDecision) {
        state.withLock { state in
            guard state.requiringLengths.mayContain(length: category.utf8.count), state.requiring.contains(category) else {
                return (state.optedOut, .notRequired)
            }
            return (state.optedOut, state.decisions[category] ?? .pending)
        }
    }

    /// Every category that needs consent, with its decision.
    public var consentDecisions: [String: ConsentDecision] {
        state.withLock { state in Dictionary(uniqueKeysWithValues: state.requiring.map { ($0, state.decisions[$0] ?? .pending) }) }
    }

    /// Records the user's decision for `category` (which from then on needs consent, if it did
    /// not already), persists it and tells the observers.
    /// - Parameters:
    ///   - decision: ``ConsentDecision/granted`` or ``ConsentDecision/denied``;
    ///     ``ConsentDecision/pending`` forgets the decision.
    ///   - category: the consent category the decision is for, for example `"Marketing"`.
    public func setConsent(_ decision: ConsentDecision, for category: String) {
        let callbacks: [@Sendable (PrivacyChange) -> Void] = state.withLock { state in
            if state.requiring.insert(category).inserted || store.value(forKey: Key.knownCategories) == nil {
                let list = (try? JSONEncoder().encode(state.requiring.sorted())).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
                save(list, forKey: Key.knownCategories)
            }
            if decision == .pending || decision == .notRequired {
                state.decisions.removeValue(forKey: category)
                remove(Key.consentPrefix + category)
            } else {
                state.decisions[category] = decision
                save(decision.rawValue, forKey: Key.consentPrefix + category)
            }
            return state.observers.all
        }
        let effective: ConsentDecision = decision == .notRequired ? .pending : decision
        callbacks.forEach { $0(.consent(category: category, decision: effective)) }
    }

    /// Clears opt-out and every consent decision, in memory and in the store, and tells the
    /// observers (the Dispatcher purges its store). Combine with ``Identity/purge()`` and
    /// ``SessionTracker/purge()``, or use ``DataQualityStack/purge()``.
    public func purge() {
        let callbacks: [@Sendable (PrivacyChange) -> Void] = state.withLock { state in
            state.optedOut = false
            state.decisions.removeAll()
            let keys = [Key.optedOut, Key.knownCategories] + state.requiring.sorted().map { Key.consentPrefix + $0 }
            for key in keys {
                do {
                    try store.removeValue(forKey: key)
                } catch {
                    diagnostics?.record(.privacy, code: "privacy_purge_failed", message: String(describing: error))
                }
            }
            return state.observers.all
        }
        callbacks.forEach { $0(.purged) }
    }

    /// Calls `callback` for every later change, outside the lock, on the thread that made it.
    @discardableResult
    public func observe(_ callback: @escaping @Sendable (PrivacyChange) -> Void) -> ObserverToken {
        state.withLock { $0.observers.add(callback) }
    }

    /// Stops calling the observer registered with `token`.
    public func removeObserver(_ token: ObserverToken) {
        state.withLock { $0.observers.remove(token) }
    }

    private static func lengths(of categories: Set<String>) -> LengthMask { LengthMask(categories.map(\.utf8.count)) }

    private func setOptedOut(_ value: Bool) {
        let callbacks: [@Sendable (PrivacyChange) -> Void] = state.withLock { state in
            guard state.optedOut != value else { return [] }
            state.optedOut = value
            if value { save("true", forKey: Key.optedOut) } else { remove(Key.optedOut) }
            return state.observers.all
        }
        callbacks.forEach { $0(value ? .optedOut : .optedIn) }
    }

    private func save(_ value: String, forKey key: String) {
        do {
            try store.setValue(value, forKey: key)
        } catch {
            diagnostics?.record(.privacy, code: "privacy_write_failed", message: String(describing: error))
        }
    }

    private func remove(_ key: String) {
        do {
            try store.removeValue(forKey: key)
        } catch {
            diagnostics?.record(.privacy, code: "privacy_write_failed", message: String(describing: error))
        }
    }
}
