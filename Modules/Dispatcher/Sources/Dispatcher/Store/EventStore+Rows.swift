import Foundation

// Reading rows and converting times.
extension EventStore {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// Reads a row selected with ``EventStoreSchema/columns``, its own context merged over the
    /// shared one it refers to (read from `contexts` once per store and hash). Call it holding
    /// the store's lock, with `database` open.
    func row(_ statement: SQLiteStatement, _ database: SQLiteDatabase, _ state: inout State) throws -> StoredEvent {
        var event = EncodedEvent(
            id: statement.uuid(1) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            timestampMilliseconds: statement.int64(2),
            category: statement.string(3) ?? "",
            name: statement.string(4) ?? "",
            action: statement.string(5) ?? "",
            userDataBlob: try json(statement.bytes(6)),
            contextBlob: try json(statement.bytes(7)),
            flagsBlob: try json(statement.bytes(8))
        )
        let reference = UInt64(bitPattern: statement.int64(14))
        if reference != 0 {
            event.contextBlob = ContextMerge.merge(shared: try sharedContext(reference, database, &state), own: event.contextBlob)
        }
        let next = statement.int64(12)
        return StoredEvent(
            sequence: statement.int64(0),
            event: event,
            status: EventStoreSchema.status(statement.int64(9)),
            attempts: statement.int(10),
            createdAt: Self.date(statement.int64(11)),
            nextAttemptAt: next > 0 ? Self.date(next) : nil,
            lastError: statement.string(13)
        )
    }

    /// A stored userData, context or flags blob as JSON: binary ones (``BinaryValue``) transcoded,
    /// JSON ones (rows written before) as they are.
    /// - Throws: ``StoreError/corrupt(path:setAsidePath:cause:)`` for a malformed binary blob.
    private func json(_ blob: [UInt8]) throws -> [UInt8] {
        do { return try BinaryValue.json(blob) } catch {
            throw StoreError.corrupt(path: path, setAsidePath: nil, cause: "event row: \(error)")
        }
    }

    /// The JSON of the shared context `hash`, cached; an empty object when it is missing (not
    /// cached: the cache holds only contexts that are in `contexts`).
    private func sharedContext(_ hash: UInt64, _ database: SQLiteDatabase, _ state: inout State) throws -> [UInt8] {
        if let known = state.contextCache[hash] { return known }
        let select = try database.cached(EventStoreSchema.readContext)
        try select.bind(Int64(bitPattern: hash), at: 1)
        defer { select.reset() }
        guard try select.step() else { return EncodedEvent.emptyObject }
        let json = select.bytes(0)
        state.contextCache[hash] = json
        return json
    }
}
