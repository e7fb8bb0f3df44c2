import CSQLite
import Foundation

/// A prepared SQLite statement: bind parameters (1-based), step through rows, read columns
/// (0-based), reset to run again.
///
/// Statements belong to one ``SQLiteDatabase`` and are used under its owner's lock.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: OpaquePointer
    /// The statement's SQL text.
    let sql: String

    init(database: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw SQLiteDatabase.error(database, code: result, sql: sql)
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func check(_ result: Int32) throws(SQLiteError) {
        guard result == SQLITE_OK else { throw SQLiteDatabase.error(database, code: result, sql: sql) }
    }

    /// Binds an integer.
    func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds an integer.
    func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds a double.
    func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds a text value, or NULL when `value` is `nil`.
    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var text = value else { return try bindNull(at: index) }
        let result = text.withUTF8 { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
            return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                sqlite3_bind_text(handle, index, pointer, Int32(buffer.count), Self.transient)
            }
        }
        try check(result)
    }

    /// Binds a blob (copied).
    func bind(bytes value: [UInt8], at index: Int32) throws(SQLiteError) {
        let result = value.withUnsafeBytes { buffer in
            sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), Self.transient)
        }
        try check(result)
    }

    /// Binds UTF-8 text without copying it: the bytes must stay valid and unchanged until the
    /// statement has been stepped for this binding.
    func bindBorrowed(text: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        let pointer = (text.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
        try check(sqlite3_bind_text(handle, index, pointer, Int32(text.count), nil))
    }

    /// Binds a blob without copying it: the bytes must stay valid and unchanged until the
    /// statement has been stepped for this binding.
    func bindBorrowed(bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), nil))
    }

    /// Binds a UUID as its 16 raw bytes.
    func bind(_ value: UUID, at index: Int32) throws(SQLiteError) {
        var uuid = value.uuid
        let result = withUnsafeBytes(of: &uuid) { buffer in
            sqlite3_bind_blob(handle, index, buffer.baseAddress, 16, Self.transient)
        }
        try check(result)
    }

    /// Binds NULL.
    func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Runs the statement to its next row.
    /// - Returns: `true` when a row is available, `false` when the statement is done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteDatabase.error(database, code: result, sql: sql)
        }
    }

    /// Resets the statement and clears its bindings, ready to run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement but keeps its bindings (for a loop that rebinds every parameter).
    func rewind() {
        sqlite3_reset(handle)
    }

    /// Whether the column holds NULL.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as an integer (0 for NULL).
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column as an integer (0 for NULL).
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    /// The column as a double (0 for NULL).
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The column as text, or `nil` for NULL.
    func string(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column as bytes (empty for NULL).
    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let blob = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// The column as a UUID, or `nil` when it is not a 16-byte blob.
    func uuid(_ column: Int32) -> UUID? {
        guard sqlite3_column_bytes(handle, column) == 16, let blob = sqlite3_column_blob(handle, column) else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 16)) }
        return UUID(uuid: uuid)
    }
}
