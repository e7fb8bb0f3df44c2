/// The callbacks registered with an observable type, by token. A value type: its owner keeps
/// it under its own lock, together with the state the callbacks report on.
struct ObserverRegistry<Change> {
    private var callbacks: [Int: @Sendable (Change) -> Void] = [:]
    private var next = 0
    /// Every callback, in the order they were added: kept up to date on each change so that
    /// reading it (on every notification) copies nothing.
    private(set) var all: [@Sendable (Change) -> Void] = []

    /// Registers `callback` and returns its token.
    mutating func add(_ callback: @escaping @Sendable (Change) -> Void) -> ObserverToken {
        next += 1
        callbacks[next] = callback
        all.append(callback)
        return ObserverToken(value: next)
    }

    /// Forgets the callback registered with `token`.
    mutating func remove(_ token: ObserverToken) {
        guard callbacks.removeValue(forKey: token.value) != nil else { return }
        all = callbacks.keys.sorted().compactMap { callbacks[$0] }
    }
}
