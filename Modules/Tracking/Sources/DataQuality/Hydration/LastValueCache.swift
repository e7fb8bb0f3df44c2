import Foundation
import Tracking

/// A key of a ``LastValueCache``: how two keys are found to be the same.
protocol LastValueCacheKey {
    /// Whether `self` and `other` are the same key.
    func matches(_ other: Self) -> Bool
}

/// The value made for the last key asked for, kept until another key comes: the shared context
/// of the current session (hydration), the redacted form of the last shared context (redaction).
/// Making the value happens outside the lock.
final class LastValueCache<Key: LastValueCacheKey & Sendable, Value: Sendable>: Sendable {
    private struct State {
        /// The last key; held strongly, so a key compared by identity cannot be reused by
        /// another instance while cached. Key and value are kept apart so that a lookup
        /// compares the key where it lies, copying (and retaining) only the value it returns.
        var lastKey: Key?
        /// The value made for ``lastKey``.
        var lastValue: Value?
        /// Counts ``reset()`` calls: a value made across one is not kept.
        var generation = 0
    }

    private let state = LockedValue(State())

    /// The value for `key`: the cached one when `key` matches the last one asked for, otherwise
    /// `make(key)`'s, which is kept for the next call.
    func value(for key: Key, make: (Key) -> Value) -> Value {
        let (cached, started): (Value?, Int) = state.withLock { state in
            guard state.lastKey?.matches(key) == true else { return (nil, state.generation) }
            return (state.lastValue, state.generation)
        }
        if let cached { return cached }
        let made = make(key)
        state.withLock { state in
            if state.generation == started { (state.lastKey, state.lastValue) = (key, made) }
        }
        return made
    }

    /// Forgets the cached value: the next call makes a new one.
    func reset() {
        state.withLock { state in
            (state.lastKey, state.lastValue) = (nil, nil)
            state.generation &+= 1
        }
    }
}

extension SharedContextKey: LastValueCacheKey {
    /// Equal keys match.
    func matches(_ other: SharedContextKey) -> Bool { self == other }
}

extension SharedContext: LastValueCacheKey {
    /// A shared context matches only itself (its values were built once, for all its events).
    func matches(_ other: SharedContext) -> Bool { self === other }
}
