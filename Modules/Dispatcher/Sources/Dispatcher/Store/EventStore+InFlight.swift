import Foundation

// What the store's state knows of the rows in flight through it, and of recent ids.
extension EventStore.State {
    /// Adds ids to the duplicate window, rolling generations when the newest is full.
    mutating func remember(_ keys: KeySet) {
        if recentIDs.count + keys.count > EventStore.duplicateWindow {
            swap(&olderIDs, &recentIDs)
            recentIDs.removeAll(keepingCapacity: true)
        }
        recentIDs.formUnion(keys)
    }

    /// Remembers what a committed claim put in flight.
    mutating func recordClaimed(_ claim: EventStore.ClaimedRows) {
        for (row, size) in zip(claim.rows, claim.sizes) { inFlight[row.event.id] = (row.sequence, size) }
    }

    /// Splits ids into rows in flight (with their `seq` and size) and the others.
    func partition(_ ids: [UUID]) -> (inFlight: [(sequence: Int64, size: Int)], others: [UUID]) {
        var found: [(sequence: Int64, size: Int)] = []
        var others: [UUID] = []
        for id in ids {
            if let row = inFlight[id] { found.append(row) } else { others.append(id) }
        }
        return (found, others)
    }

    /// The `seq` range of `rows` when they are exactly the rows in flight through this store
    /// within it (so statements over the range touch no other in-flight row); `nil` otherwise.
    func wholeInFlightRange(_ rows: [(sequence: Int64, size: Int)]) -> ClosedRange<Int64>? {
        guard rows.count > 1, let low = rows.map(\.sequence).min(), let high = rows.map(\.sequence).max() else { return nil }
        guard Set(rows.map(\.sequence)).count == rows.count else { return nil }
        let inRange = inFlight.values.reduce(0) { $0 + ((low...high).contains($1.sequence) ? 1 : 0) }
        return inRange == rows.count ? low...high : nil
    }
}
