/// Why an ``EventJournal`` could not take or read a record.
enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A segment file or the folder could not be created, sized or mapped.
    case io(path: String, operation: String, errno: Int32)
    /// The journal's segments fill its byte budget: the events in them have not reached the
    /// store yet (the store is failing or far behind).
    case full(bytes: Int)
    /// The record is larger than a segment can hold.
    case recordTooLarge(bytes: Int, limit: Int)
    /// The journal was closed.
    case closed

    /// A readable sentence.
    var description: String {
        switch self {
        case let .io(path, operation, code): "journal \(operation) failed for \(path): \(FileProtection.describe(code)) (errno \(code))"
        case let .full(bytes): "journal is full (its budget of \(bytes) bytes holds events not yet in the store)"
        case let .recordTooLarge(bytes, limit): "event of \(bytes) bytes exceeds the journal record limit of \(limit) bytes"
        case .closed: "journal is closed"
        }
    }
}
