/// An immutable table from texts to values, built once (from a compiled contract) and read on
/// every event: keys are found by ``ContentHash`` and open addressing, cheaper than a
/// `Dictionary`'s seeded hash for the short keys of userData.
struct StringTable<Value: Sendable>: Sendable {
    private let keys: [String?]
    private let values: [Value?]
    private let mask: Int
    /// How many keys.
    let count: Int

    /// A table holding `dictionary`.
    init(_ dictionary: [String: Value]) {
        var size = 8
        while size < dictionary.count * 2 { size <<= 1 }
        var keys = [String?](repeating: nil, count: size)
        var values = [Value?](repeating: nil, count: size)
        for (key, value) in dictionary {
            var slot = Int(truncatingIfNeeded: ContentHash.of(key)) & (size - 1)
            while keys[slot] != nil { slot = (slot + 1) & (size - 1) }
            keys[slot] = key
            values[slot] = value
        }
        self.keys = keys
        self.values = values
        mask = size - 1
        count = dictionary.count
    }

    /// The value for `key`, or `nil`.
    subscript(key: String) -> Value? {
        // An empty table (a category with no per-event rules) hashes nothing.
        count > 0 ? self[key, hash: ContentHash.of(key)] : nil
    }

    /// The value for `key` whose ``ContentHash/of(_:)`` (the first lane of
    /// ``ContentHash/member(key:)``) the caller has taken: `hash`.
    subscript(key: String, hash hash: UInt64) -> Value? {
        guard count > 0 else { return nil }
        var slot = Int(truncatingIfNeeded: hash) & mask
        while let candidate = keys[slot] {
            if candidate == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
