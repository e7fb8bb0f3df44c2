import Foundation

/// The value made for the last key asked for, kept until another key comes: the shared context
/// of the current session (hydration), the redacted form of the last shared context (redaction).
/// Making the value happens outside the lock.
final class LastValueCache<Key, Value>: @unchecked Sendable {
    // Safe: `last` is only touched while holding `lock`. It holds the key strongly, so a key
    // compared by identity cannot be reused by another instance while cached.
    private let lock = NSLock()
    private var last: (key: Key, value: Value)?
    private let matches: @Sendable (Key, Key) -> Bool

    /// Creates an empty cache whose keys are the same when `matches` says so (`==`, or `===`
    /// for identity).
    init(matching matches: @escaping @Sendable (Key, Key) -> Bool) {
        self.matches = matches
    }

    /// The value for `key`: the cached one when `key` matches the last one asked for, otherwise
    /// `make(key)`'s, which is kept for the next call.
    func value(for key: Key, make: (Key) -> Value) -> Value {
        let cached: Value? = lock.withLock {
            guard let last, matches(last.key, key) else { return nil }
            return last.value
        }
        if let cached { return cached }
        let made = make(key)
        lock.withLock { last = (key, made) }
        return made
    }
}
