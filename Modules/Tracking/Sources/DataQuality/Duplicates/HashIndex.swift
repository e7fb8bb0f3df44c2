/// Positions filed under 64-bit hashes: an open-addressing table with linear probing whose
/// deletions shift later entries back (no tombstones), so lookups stay short however long it
/// is used. It hashes nothing itself: the hashes are mixed once more to pick a home slot, so
/// keys that are already random (or ``ContentHash`` values) cost a multiply, not a SipHash.
///
/// Several positions may be filed under one hash; a lookup asks the caller which one it wants.
/// It holds at most the `capacity` it was made for.
struct HashIndex {
    private struct Slot {
        var hash: UInt64
        /// The position filed, or `-1` for an empty slot.
        var position: Int

        static let empty = Slot(hash: 0, position: -1)
    }

    private var slots: [Slot]
    private let mask: Int
    private let shift: UInt64
    /// How many positions it holds at most.
    let capacity: Int
    /// How many positions it holds.
    private(set) var count = 0

    /// An empty index for at most `capacity` positions (at least one), with four times as many
    /// slots: runs stay short, so lookups and removals touch few slots.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        var size = 8
        while size < self.capacity * 4 { size <<= 1 }
        slots = Array(repeating: .empty, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    /// The first position filed under `hash` that `matches`, or `nil`.
    func position(of hash: UInt64, where matches: (Int) -> Bool) -> Int? {
        var slot = home(of: hash)
        while true {
            let candidate = slots[slot]
            if candidate.position < 0 { return nil }
            if candidate.hash == hash, matches(candidate.position) { return candidate.position }
            slot = (slot + 1) & mask
        }
    }

    /// Files `position` under `hash`; returns `false` (filing nothing) when it is full.
    @discardableResult
    mutating func insert(_ position: Int, hash: UInt64) -> Bool {
        guard count < capacity, position >= 0 else { return false }
        var slot = home(of: hash)
        while slots[slot].position >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Slot(hash: hash, position: position)
        count += 1
        return true
    }

    /// Removes `position` filed under `hash`; does nothing when it is not there.
    mutating func remove(_ position: Int, hash: UInt64) {
        var hole = home(of: hash)
        while slots[hole].position != position || slots[hole].hash != hash {
            if slots[hole].position < 0 { return }
            hole = (hole + 1) & mask
        }
        // Backward shift: each later entry of the run moves into the hole when the hole lies
        // between its home and where it sits, so no lookup meets an empty slot before it.
        var next = (hole + 1) & mask
        while slots[next].position >= 0 {
            let distanceFromHome = (next - home(of: slots[next].hash)) & mask
            if distanceFromHome >= (next - hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = .empty
        count -= 1
    }

    /// The slot a hash is first looked for in: its top bits after a Fibonacci multiply.
    private func home(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
