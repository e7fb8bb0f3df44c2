/// A step of the plain-SQLite reference that SQLite refused.
public struct SQLiteReferenceError: Error, CustomStringConvertible {
    /// The statement or operation.
    public var step: String
    /// SQLite's result code.
    public var code: Int32

    /// `SQLite reference: <step> failed with code N`.
    public var description: String { "SQLite reference: \(step) failed with code \(code)" }
}
