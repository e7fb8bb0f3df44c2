/// Whether the Dispatcher's storage (the SQLite store and its journal) can be written.
public enum StorageState: Sendable, Equatable, CustomStringConvertible {
    /// Events go to the journal and the store.
    case available
    /// The store could not be opened (read-only folder, full disk, unusable path): events wait
    /// in memory, up to ``BatchConfiguration/overflowQueueSize``, and opening is retried.
    case unavailable(reason: String)

    /// `available`, or `unavailable: reason`.
    public var description: String {
        switch self {
        case .available: "available"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}
