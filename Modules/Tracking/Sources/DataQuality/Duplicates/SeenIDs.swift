/// The last `capacity` event ids seen, asked one at a time whether an id is among them (a
/// repeat) and remembering it when not: the id half of ``RecentEvents``.
///
/// Ids made by `EventID` rise, so the usual id is newer than every one remembered and cannot
/// repeat: it is appended to a ring that stays in rising order, with no lookup and no index to
/// update. An id that is not newer is looked up by binary search; the first such id that is
/// new ends the order, and from then on ids are filed in an ``IndexedRing``, which answers the
/// same for ids in any order.
struct SeenIDs: Sendable {
    /// The ids in the order seen, rising, while ``indexed`` is `nil`.
    private var ordered: [SeenID] = []
    /// The position the next append overwrites once `ordered` is full: the oldest id's.
    private var oldest = 0
    /// The ids, once one came out of order.
    private var indexed: IndexedRing<SeenID>?
    /// How many ids it remembers at most.
    let capacity: Int

    /// Remembers nothing yet; holds at most `capacity` ids (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        ordered.reserveCapacity(self.capacity)
    }

    /// Whether `id` is among the ids remembered; when it is not, it is remembered (the oldest
    /// forgotten first when full).
    mutating func checkAndRemember(_ id: SeenID) -> Bool {
        if indexed != nil { return checkIndexed(id) }
        if let newest = newest, !newest.precedes(id) {
            if contains(id) { return true }
            startIndexing()
            return checkIndexed(id)
        }
        append(id)
        return false
    }

    /// Whether it still keeps its ids in rising order, with no index.
    var isOrdered: Bool { indexed == nil }

    private var newest: SeenID? {
        guard !ordered.isEmpty else { return nil }
        return ordered.count < capacity ? ordered[ordered.count - 1] : ordered[(oldest + capacity - 1) % capacity]
    }

    private mutating func append(_ id: SeenID) {
        if ordered.count < capacity {
            ordered.append(id)
        } else {
            ordered[oldest] = id
            oldest = (oldest + 1) % capacity
        }
    }

    /// The `position`-th id, oldest first.
    private func id(at position: Int) -> SeenID {
        ordered.count < capacity ? ordered[position] : ordered[(oldest + position) % capacity]
    }

    /// Binary search of the rising ids.
    private func contains(_ id: SeenID) -> Bool {
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = self.id(at: middle)
            if candidate == id { return true }
            if candidate.precedes(id) { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// Files the ids remembered so far, oldest first, in an index, and keeps them there from now on.
    private mutating func startIndexing() {
        var ring = IndexedRing<SeenID>(capacity: capacity)
        for position in 0..<ordered.count {
            let id = id(at: position)
            ring.append(id, key: id.key)
        }
        indexed = ring
        ordered = []
        oldest = 0
    }

    private mutating func checkIndexed(_ id: SeenID) -> Bool {
        if indexed?.position(of: id.key, where: { $0 == id }) != nil { return true }
        indexed?.append(id, key: id.key)
        return false
    }
}
