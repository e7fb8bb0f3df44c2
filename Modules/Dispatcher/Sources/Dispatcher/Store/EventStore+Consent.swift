import Foundation

// Events held for consent: released or deleted by category.
extension EventStore {
    /// Makes the held events of a category deliverable: they become pending, and their stored
    /// flags lose `awaiting_consent` (the wire then shows no hold that no longer applies).
    /// Reaches them through the index of held rows: its cost follows the rows it releases.
    /// - Parameter category: the events' category.
    /// - Returns: how many were released.
    @discardableResult
    func releaseHeld(category: String) throws -> Int {
        try write { database, counts, state in
            let select = try database.cached(EventStoreSchema.heldInCategory)
            try select.bind(category, at: 1)
            var rows: [(sequence: Int64, flags: [UInt8], size: Int)] = []
            while try select.step() { rows.append((select.int64(0), select.bytes(1), select.int(2))) }
            select.reset()
            let update = try database.cached(EventStoreSchema.releaseHeld)
            var released = 0
            for row in rows {
                let flags = ConsentHold.released(row.flags)
                let size = row.size - row.flags.count + flags.count
                update.rewind()
                try update.bind(bytes: flags, at: 1)
                try update.bind(size, at: 2)
                try update.bind(row.sequence, at: 3)
                try update.step()
                guard database.changes == 1 else { continue }
                released += 1
                counts.held -= 1
                counts.pending += 1
                counts.bytes += size - row.size
                state.pendingFloor = min(state.pendingFloor, row.sequence)
            }
            return released
        }
    }

    /// Deletes the held events of a category (consent denied), reaching them through the index
    /// of held rows (its cost follows the rows it deletes, not the store's size). Their content is
    /// overwritten and the write-ahead log emptied before this returns (see
    /// ``overwritingDeleted(_:_:)``).
    /// - Parameter category: the events' category.
    /// - Returns: how many were deleted.
    @discardableResult
    func deleteHeld(category: String) throws -> Int {
        try withDatabase { database in try database.execute("PRAGMA secure_delete = ON") }
        defer { _ = try? withDatabase { database in try database.execute("PRAGMA secure_delete = FAST") } }
        let deleted = try write { database, counts in
            let delete = try database.cached(EventStoreSchema.deleteHeld)
            try delete.bind(category, at: 1)
            var deleted = 0
            while try delete.step() {
                deleted += 1
                counts.held -= 1
                counts.bytes -= delete.int(0)
            }
            delete.reset()
            return deleted
        }
        if deleted > 0 { try withDatabase { database in _ = try truncateLog(database) } }
        return deleted
    }
}
