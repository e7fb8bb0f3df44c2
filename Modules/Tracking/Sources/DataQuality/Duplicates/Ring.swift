/// The last `capacity` values appended, oldest first out: appending to a full ring overwrites
/// and returns the oldest.
struct Ring<Value> {
    private var storage: [Value] = []
    private var oldest = 0
    private let capacity: Int

    /// An empty ring holding at most `capacity` values (at least one).
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Appends `value`; returns the value it pushed out, if the ring was full.
    mutating func append(_ value: Value) -> Value? {
        guard storage.count == capacity else {
            storage.append(value)
            return nil
        }
        let forgotten = storage[oldest]
        storage[oldest] = value
        oldest = (oldest + 1) % capacity
        return forgotten
    }
}
