import Foundation
import Tracking

// Counts and queries, including the events still only in the journal.
extension EventStore {
    /// What the store holds, without scanning it (re-read from the file when opened for reading,
    /// as another process may be changing it).
    func counts() -> StoreCounts {
        state.withLock { state in
            if isReadOnly, let database = state.database, let fresh = try? readCounters(database) { state.counters = fresh }
            return state.counters
        }
    }

    /// Events matching `query`, in its order, one page.
    ///
    /// ``EventStatus/delivered`` reads the delivered history. With no status, the page runs over
    /// the events the store holds first, then over the delivered history, each part in the
    /// requested order (the store's part is counted from the counters, so paging stays cheap).
    ///
    /// On a store opened `readOnly`, the pending events that are still only in the journal
    /// beside it (`<path>.journal/`, after the position the ingest writer recorded; after a
    /// crash, until a writable open replays them) are part of the answer too, with status
    /// ``EventStatus/pending`` and ``StoredEvent/isInJournal``: for no status and for
    /// ``EventStatus/pending``, after the store's own events (and before the delivered history),
    /// de-duplicated by id. The journal is read without writing anything, when a query starts at
    /// offset 0; the pages after it reuse that reading.
    func query(_ query: StoreQuery) throws -> [StoredEvent] {
        try self.query(query, includingJournal: isReadOnly)
    }

    /// ``query(_:)``, with or without the events only in the journal beside the store.
    func query(_ query: StoreQuery, includingJournal: Bool) throws -> [StoredEvent] {
        guard query.limit > 0 else { return [] }
        if query.status == .delivered { return try page(query, table: .delivered, limit: query.limit, offset: query.offset) }
        let withJournal = includingJournal && (query.status == nil || query.status == .pending)
        let journal = withJournal ? try journalPart(query) : []
        let held = try page(query, table: .events, limit: query.limit, offset: query.offset)
        guard held.count < query.limit, query.status == nil || !journal.isEmpty else { return held }
        let counts = counts()
        let heldTotal = query.status == .pending ? counts.pending : counts.total
        let journalOffset = held.isEmpty ? max(0, query.offset - heldTotal) : 0
        // A live writer may have moved some of them into the store since the journal was read.
        let heldIDs = journal.isEmpty ? [] : Set(held.map(\.event.id))
        let fromJournal = Array(journal.dropFirst(journalOffset).prefix(query.limit - held.count)).filter { !heldIDs.contains($0.event.id) }
        guard query.status == nil, held.count + fromJournal.count < query.limit else { return held + fromJournal }
        let history = try page(query, table: .delivered, limit: query.limit - held.count - fromJournal.count,
                               offset: max(0, query.offset - heldTotal - journal.count))
        return held + fromJournal + history
    }

    /// How many events ``query(_:)`` would return for `query` with no limit and no offset.
    /// Reads the counters, the journal (on a store opened `readOnly`) and, for the delivered
    /// history, counts its rows.
    func count(matching query: StoreQuery) throws -> Int {
        let counts = counts()
        let journal = isReadOnly && (query.status == nil || query.status == .pending)
            ? try journalPart(StoreQuery(status: query.status)).count : 0
        let history = query.status == nil || query.status == .delivered
            ? try withDatabase { database in Int(try database.scalarInt("SELECT count(*) FROM delivered") ?? 0) } : 0
        return switch query.status {
        case nil: counts.total + journal + history
        case .pending: counts.pending + journal
        case .inFlight: counts.inFlight
        case .rejected: counts.rejected
        case .held: counts.held
        case .delivered: history
        }
    }

    /// The events only in the journal, in the query's order: read again when the query starts
    /// at offset 0 (or was never read), otherwise the last reading.
    func journalPart(_ query: StoreQuery) throws -> [StoredEvent] {
        let cached = state.withLock { query.offset == 0 ? nil : $0.journalRows }
        let rows = try cached ?? readJournal()
        let ordered: [StoredEvent] = switch query.sort {
        case .category: rows.enumerated().sorted { ($0.element.event.category, $0.offset) < ($1.element.event.category, $1.offset) }.map(\.element)
        case .name: rows.enumerated().sorted { ($0.element.event.name, $0.offset) < ($1.element.event.name, $1.offset) }.map(\.element)
        case .createdAt, .status, .attempts: rows
        }
        return query.ascending ? ordered : ordered.reversed()
    }

    /// Reads the journal beside the store (writing nothing) after the ingest writer's recorded
    /// position, drops ids seen twice and ids the store already holds, and keeps the result.
    func readJournal() throws -> [StoredEvent] {
        let position = try metadata(IngestWriter.positionKey).flatMap(JournalPosition.init) ?? .start
        let rows = try notYetStored(JournalReader.events(in: path + ".journal", after: position))
        state.withLock { $0.journalRows = rows }
        return rows
    }

    /// `events` as pending rows of the journal, each id once, without the ids the store's tables
    /// hold (looked up 10,000 at a time), in their order.
    func notYetStored(_ events: [EncodedEvent]) throws -> [StoredEvent] {
        var seen = Set<UUID>()
        let unique = events.filter { seen.insert($0.id).inserted }
        var stored = Set<UUID>()
        var start = 0
        while start < unique.count {
            let ids = unique[start..<min(unique.count, start + 10_000)].map(\.id)
            start += ids.count
            let list = EventStoreSchema.literals(ids)
            try withDatabase { database in
                let select = try database.prepare(
                    "SELECT id FROM events WHERE id IN (\(list)) UNION ALL SELECT id FROM delivered WHERE id IN (\(list))")
                while try select.step() { if let id = select.uuid(0) { stored.insert(id) } }
            }
        }
        return unique.filter { !stored.contains($0.id) }.map { event in
            StoredEvent(sequence: 0, event: event, status: .pending, attempts: 0, createdAt: event.timestamp, isInJournal: true)
        }
    }

    /// The tables ``query(_:)`` reads.
    enum Table {
        case events
        case delivered
    }

    /// One page of one table, filtered by the query's status when it reads `events`.
    func page(_ query: StoreQuery, table: Table, limit: Int, offset: Int) throws -> [StoredEvent] {
        let column = switch query.sort {
        case .createdAt: "seq" // rows are numbered in the order they were persisted
        case .category: "category"
        case .name: "name"
        case .status: "status"
        case .attempts: "attempts"
        }
        let direction = query.ascending ? "ASC" : "DESC"
        let order = column == "seq" ? "seq \(direction)" : "\(column) \(direction), seq \(direction)"
        let sql = switch table {
        case .events:
            "SELECT \(EventStoreSchema.columns) FROM events \(query.status.map { "WHERE status = \(EventStoreSchema.code($0))" } ?? "") "
                + "ORDER BY \(order) LIMIT ? OFFSET ?"
        case .delivered:
            // `seq` can repeat across delivered rows (SQLite reuses the rowids of an emptied
            // table), so the persisted time comes first there.
            "SELECT \(EventStoreSchema.deliveredColumns) FROM delivered ORDER BY "
                + (column == "seq" ? "created_at \(direction), seq \(direction)" : order) + " LIMIT ? OFFSET ?"
        }
        return try withDatabase { database, state in
            let select = try database.cached(sql)
            try select.bind(limit, at: 1)
            try select.bind(offset, at: 2)
            var rows: [StoredEvent] = []
            while try select.step() { rows.append(try self.row(select, database, &state)) }
            select.reset()
            return rows
        }
    }
}
