/// A set of 64-bit keys: open addressing with linear probing and multiplicative hashing, grown
/// to stay at most half full.
///
/// For the store's duplicate window (the random last 64 bits of event ids), where
/// `Set<UInt64>`'s SipHash costs more than the lookup itself. Keeps the part of `Set`'s
/// interface the store uses; any key, 0 included, can be stored.
struct KeySet: ExpressibleByArrayLiteral, Sendable {
    /// The slots; 0 marks an empty one (the key 0 is kept in `holdsZero` instead).
    private var slots: [UInt64]
    private var holdsZero = false
    /// How many keys the set holds.
    private(set) var count = 0
    /// What ``warm(_:)`` last read, kept so that its loads are not optimised away.
    private var warmed: UInt64 = 0

    /// Creates an empty set that holds `minimumCapacity` keys before it grows.
    init(minimumCapacity: Int = 0) {
        slots = Array(repeating: 0, count: Self.slotCount(for: minimumCapacity))
    }

    /// Creates a set of the keys listed.
    init(arrayLiteral keys: UInt64...) {
        self.init(minimumCapacity: keys.count)
        for key in keys { insert(key) }
    }

    /// Whether the set holds no key.
    var isEmpty: Bool { count == 0 }

    /// Whether the set holds `key`.
    func contains(_ key: UInt64) -> Bool {
        if key == 0 { return holdsZero }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Self.home(of: key, slotCount: slots.count)
            while true {
                let slot = slots[index]
                if slot == key { return true }
                if slot == 0 { return false }
                index = (index + 1) & mask
            }
        }
    }

    /// Reads the slot where the lookup of each key starts, in a loop of independent loads that
    /// the CPU overlaps, so that ``contains(_:)`` for those keys right after finds them in cache
    /// instead of waiting for each miss alone (a large set does not fit in cache).
    mutating func warm(_ keys: [UInt64]) {
        var folded: UInt64 = 0
        slots.withUnsafeBufferPointer { slots in
            for key in keys { folded ^= slots[Self.home(of: key, slotCount: slots.count)] }
        }
        warmed = folded
    }

    /// Adds `key`.
    /// - Returns: whether it was not there yet.
    @discardableResult
    mutating func insert(_ key: UInt64) -> Bool {
        if key == 0 {
            guard !holdsZero else { return false }
            holdsZero = true
            count += 1
            return true
        }
        if 2 * (count + 1) > slots.count { grow() }
        let inserted = slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var index = Self.home(of: key, slotCount: slots.count)
            while true {
                let slot = slots[index]
                if slot == key { return false }
                if slot == 0 {
                    slots[index] = key
                    return true
                }
                index = (index + 1) & mask
            }
        }
        if inserted { count += 1 }
        return inserted
    }

    /// Adds every key of `other`.
    mutating func formUnion(_ other: KeySet) {
        other.forEach { insert($0) }
    }

    /// Calls `body` with each key, in no particular order.
    func forEach(_ body: (UInt64) -> Void) {
        if holdsZero { body(0) }
        for slot in slots where slot != 0 { body(slot) }
    }

    /// Removes every key; with `keepingCapacity`, the slots stay allocated.
    mutating func removeAll(keepingCapacity: Bool = false) {
        if keepingCapacity {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            slots = Array(repeating: 0, count: Self.slotCount(for: 0))
        }
        holdsZero = false
        count = 0
    }

    /// Doubles the slots and re-inserts the keys.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        let zero = holdsZero
        count = 0
        holdsZero = false
        for slot in old where slot != 0 { insert(slot) }
        if zero { insert(0) }
    }

    /// The slot a key's probe starts at: the high bits of the key times a large odd constant
    /// (Fibonacci hashing), so that keys differing only in some bits still spread.
    @inline(__always)
    private static func home(of key: UInt64, slotCount: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotCount.trailingZeroBitCount))
    }

    /// The power of two of slots that holds `capacity` keys at most half full (at least 16).
    private static func slotCount(for capacity: Int) -> Int {
        var slots = 16
        while slots / 2 < capacity { slots <<= 1 }
        return slots
    }
}
