/// Counts for each case of a small enum, in an array indexed by the case's position: adding
/// hashes nothing. Only the counts that were ever touched appear in ``dictionary``.
struct SlotCounts<Key: Hashable & Sendable>: Sendable {
    private let keys: [Key]
    private var counts: [Int]
    private var touched: [Bool]

    /// Zero counts for `keys`, whose positions are the slots.
    init(_ keys: [Key]) {
        self.keys = keys
        counts = Array(repeating: 0, count: keys.count)
        touched = Array(repeating: false, count: keys.count)
    }

    /// Adds `amount` to the count at `slot`.
    mutating func add(_ amount: Int, at slot: Int) {
        counts[slot] += amount
        touched[slot] = true
    }

    /// The touched counts by key.
    var dictionary: [Key: Int] {
        var result: [Key: Int] = [:]
        for index in keys.indices where touched[index] { result[keys[index]] = counts[index] }
        return result
    }

    /// Forgets every count.
    mutating func removeAll() {
        for index in keys.indices {
            counts[index] = 0
            touched[index] = false
        }
    }
}
