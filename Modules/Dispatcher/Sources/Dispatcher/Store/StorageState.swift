/// Whether the Dispatcher's storage (the SQLite store and its journal) can be written.
public enum StorageState: Sendable, Equatable, CustomStringConvertible {
    /// Events go to the journal and the store.
    case available
    /// The store is being opened in the background (see
    /// ``DispatcherConfiguration/opensStorageInBackground``): events wait in memory, in order,
    /// and move to it once it opens. ``Dispatcher/storageReady(isolation:)`` waits for the outcome.
    case opening
    /// The store could not be opened (read-only folder, full disk, unusable path): events wait
    /// in memory, up to ``BatchConfiguration/overflowQueueSize``, and opening is retried.
    case unavailable(reason: String)

    /// `available`, `opening`, or `unavailable: reason`.
    public var description: String {
        switch self {
        case .available: "available"
        case .opening: "opening"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}
