/// The callbacks registered with an observable type, by token. A value type: its owner keeps
/// it under its own lock, together with the state the callbacks report on.
struct ObserverRegistry<Change>: Sendable {
    /// The token of each callback of ``all``, at the same position.
    private var tokens: [Int] = []
    private var next = 0
    /// Every callback, in the order they were added: read on every notification, copying nothing.
    private(set) var all: [@Sendable (Change) -> Void] = []

    /// Registers `callback` and returns its token.
    mutating func add(_ callback: @escaping @Sendable (Change) -> Void) -> ObserverToken {
        next += 1
        tokens.append(next)
        all.append(callback)
        return ObserverToken(value: next)
    }

    /// Forgets the callback registered with `token`.
    mutating func remove(_ token: ObserverToken) {
        guard let position = tokens.firstIndex(of: token.value) else { return }
        tokens.remove(at: position)
        all.remove(at: position)
    }
}
