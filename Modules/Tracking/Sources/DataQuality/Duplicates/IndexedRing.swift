/// The last `capacity` entries appended, in a preallocated ring (appending to a full ring
/// overwrites the oldest), each found by the 64-bit key it was appended with through a
/// ``HashIndex``: no allocation and no SipHash per entry.
struct IndexedRing<Entry: Sendable>: Sendable {
    private var entries: [Entry] = []
    private var keys: [UInt64] = []
    private var index: HashIndex
    /// The position the next append overwrites once the ring is full: the oldest entry's.
    private var oldest = 0
    /// How many entries it holds at most.
    let capacity: Int

    /// An empty ring holding at most `capacity` entries (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        index = HashIndex(capacity: self.capacity)
        entries.reserveCapacity(self.capacity)
        keys.reserveCapacity(self.capacity)
    }

    /// How many entries it holds.
    var count: Int { entries.count }

    /// The position of an entry appended with `key` that `matches`, or `nil`.
    func position(of key: UInt64, where matches: (Entry) -> Bool) -> Int? {
        index.position(of: key) { matches(entries[$0]) }
    }

    /// The entry at `position` (from ``position(of:where:)``); replacing it keeps its key and
    /// its place in the order.
    subscript(position: Int) -> Entry {
        get { entries[position] }
        set { entries[position] = newValue }
    }

    /// Appends `entry` under `key`; when the ring is full, the oldest entry is forgotten first.
    mutating func append(_ entry: Entry, key: UInt64) {
        if entries.count < capacity {
            index.insert(entries.count, hash: key)
            entries.append(entry)
            keys.append(key)
            return
        }
        index.remove(oldest, hash: keys[oldest])
        entries[oldest] = entry
        keys[oldest] = key
        index.insert(oldest, hash: key)
        oldest = (oldest + 1) % capacity
    }
}
