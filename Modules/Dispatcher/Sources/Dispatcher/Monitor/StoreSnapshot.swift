import Foundation

/// One consistent reading of a store, page after page, for a complete export (see
/// ``StoreMonitor/export(_:pageSize:limit:into:)``): every event of one moment, each id once.
///
/// The journal beside the store is read first; then one SQLite read transaction is held for the
/// whole reading, so every page sees the same state of the file, whatever a live writer commits
/// meanwhile. Of the journal, only the events after the position the writer had recorded in that
/// state are listed (the ones before it are in the store, or were delivered or evicted since),
/// and never an id the store holds. Nothing is written, nothing is created.
final class StoreSnapshot {
    /// The store, opened for reading, with its read transaction open.
    private let store: EventStore
    /// The pending events only in the journal, in the query's order.
    private let journal: [StoredEvent]
    /// The query, without its limit and offset.
    private let query: StoreQuery
    /// Rows of the store's `events` table matching the query's status, in this snapshot.
    private let heldCount: Int

    /// Opens the snapshot of `store` (opened `readOnly`) for `query`.
    init(store: EventStore, query: StoreQuery) throws {
        self.store = store
        self.query = query
        let wantsJournal = query.status == nil || query.status == .pending
        // Read before the transaction starts: a writer recycles a segment only once its events are
        // committed, so whatever it consumes after this reading is in the snapshot's tables.
        let earlier = try store.metadata(IngestWriter.positionKey).flatMap(JournalPosition.init) ?? .start
        let placed = wantsJournal ? JournalReader.placedEvents(in: store.path + ".journal", after: earlier) : []
        try store.withDatabase { database in try database.execute("BEGIN") }
        do {
            // The first read of the transaction fixes the state every later page sees.
            let position = try store.metadata(IngestWriter.positionKey).flatMap(JournalPosition.init) ?? .start
            let counts = try store.withDatabase { database in try store.readCounters(database) }
            heldCount = switch query.status {
            case nil: counts.total
            case .pending: counts.pending
            case .inFlight: counts.inFlight
            case .rejected: counts.rejected
            case .held: counts.held
            case .delivered: 0
            }
            journal = try Self.journalRows(placed.filter { $0.isAfter(position) }.map(\.event), store: store, query: query)
        } catch {
            _ = try? store.withDatabase { database in try database.execute("COMMIT") }
            throw error
        }
    }

    /// Ends the read transaction (the store stays open).
    func finish() {
        _ = try? store.withDatabase { database in try database.execute("COMMIT") }
    }

    /// Up to `limit` events from `offset` on, in the query's order: the store's events, then
    /// those only in the journal, then (for every status) the delivered history.
    func page(offset: Int, limit: Int) throws -> [StoredEvent] {
        guard limit > 0 else { return [] }
        if query.status == .delivered { return try store.page(query, table: .delivered, limit: limit, offset: offset) }
        var rows: [StoredEvent] = []
        if offset < heldCount {
            rows = try store.page(query, table: .events, limit: limit, offset: offset)
        }
        let journalOffset = max(0, offset - heldCount)
        if rows.count < limit, journalOffset < journal.count {
            rows += journal[journalOffset..<min(journal.count, journalOffset + limit - rows.count)]
        }
        if rows.count < limit, query.status == nil {
            let historyOffset = max(0, offset - heldCount - journal.count)
            rows += try store.page(query, table: .delivered, limit: limit - rows.count, offset: historyOffset)
        }
        return rows
    }

    /// The journal's events as pending rows, each id once, without the ids the snapshot's tables
    /// hold, in the query's order.
    private static func journalRows(_ events: [EncodedEvent], store: EventStore, query: StoreQuery) throws -> [StoredEvent] {
        let rows = try store.notYetStored(events)
        let ordered: [StoredEvent] = switch query.sort {
        case .category: rows.enumerated().sorted { ($0.element.event.category, $0.offset) < ($1.element.event.category, $1.offset) }.map(\.element)
        case .name: rows.enumerated().sorted { ($0.element.event.name, $0.offset) < ($1.element.event.name, $1.offset) }.map(\.element)
        case .createdAt, .status, .attempts: rows
        }
        return query.ascending ? ordered : ordered.reversed()
    }
}
