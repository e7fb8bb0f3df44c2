import Foundation

/// One row of the store's insert statement: an event's borrowed fields and the values the store
/// adds to them, bound in the order of ``EventStoreSchema/insert``'s parameters.
struct InsertRow {
    /// The event, borrowed (see ``BorrowedEvent`` for how long its memory is valid).
    let event: BorrowedEvent
    /// When the store received it, in milliseconds since 1970.
    let createdAt: Int64
    /// The bytes it counts for (``BorrowedEvent/approximateSize``).
    let size: Int
    /// Whether it waits for consent (stored `held`, not `pending`).
    let held: Bool
    /// The hash of the shared context it refers to, 0 for none.
    let contextReference: Int64

    /// Parameters per row.
    static let parameterCount: Int32 = 12

    /// Binds the row's parameters from `first` on. The id is copied; texts and blobs are not:
    /// they must stay valid until the statement is stepped.
    @inline(__always)
    func bind(to statement: SQLiteStatement, from first: Int32) throws(SQLiteError) {
        try statement.bind(UUID(uuid: event.uuid), at: first)
        try statement.bind(event.timestampMilliseconds, at: first + 1)
        try statement.bindBorrowed(text: event.category, at: first + 2)
        try statement.bindBorrowed(text: event.name, at: first + 3)
        try statement.bindBorrowed(text: event.action, at: first + 4)
        try statement.bindBorrowed(bytes: event.userData, at: first + 5)
        try statement.bindBorrowed(bytes: event.context, at: first + 6)
        try statement.bindBorrowed(bytes: event.flags, at: first + 7)
        try statement.bind(createdAt, at: first + 8)
        try statement.bind(size, at: first + 9)
        try statement.bind(held ? EventStoreSchema.held : EventStoreSchema.pending, at: first + 10)
        try statement.bind(contextReference, at: first + 11)
    }
}
