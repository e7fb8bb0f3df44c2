import Foundation

// Finding one event by id, for the inspector's detail view.
extension EventStore {
    /// The event `id`: in the store, else in its delivered history, else still only in the
    /// journal beside it; nil when none holds it. Scans the table (there is no index on ids):
    /// called only when someone opens an event's detail.
    func inspectorEvent(_ id: UUID) throws -> StoredEvent? {
        let queries = [
            "SELECT \(EventStoreSchema.columns) FROM events WHERE id = ? LIMIT 1",
            "SELECT \(EventStoreSchema.deliveredColumns) FROM delivered WHERE id = ? ORDER BY dseq DESC LIMIT 1",
        ]
        let found: StoredEvent? = try withDatabase { database, state in
            for sql in queries {
                let select = try database.prepare(sql)
                try select.bind(id, at: 1)
                if try select.step() { return try self.row(select, database, &state) }
            }
            return nil
        }
        if let found { return found }
        return try readJournal().first { $0.event.id == id }
    }
}
