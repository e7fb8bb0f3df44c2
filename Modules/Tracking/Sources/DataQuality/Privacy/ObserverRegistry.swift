/// The callbacks registered with an observable type, by token. A value type: its owner keeps
/// it under its own lock, together with the state the callbacks report on.
struct ObserverRegistry<Change> {
    private var callbacks: [Int: @Sendable (Change) -> Void] = [:]
    private var next = 0

    /// Registers `callback` and returns its token.
    mutating func add(_ callback: @escaping @Sendable (Change) -> Void) -> ObserverToken {
        next += 1
        callbacks[next] = callback
        return ObserverToken(value: next)
    }

    /// Forgets the callback registered with `token`.
    mutating func remove(_ token: ObserverToken) {
        callbacks.removeValue(forKey: token.value)
    }

    /// The callbacks now, to call outside the owner's lock.
    var all: [@Sendable (Change) -> Void] { Array(callbacks.values) }
}
