/// A writer opened the store while the monitor read it with no lock (the store had no write-ahead
/// log when the reading began) and after part of the reading was handed out: what was read
/// cannot be trusted to be one state of the store. Reading again sees the writer's log and reads
/// under its lock. The store itself is fine.
public struct StoreChangedWhileRead: Error, Sendable, CustomStringConvertible {
    /// The store file.
    public let path: String

    /// A readable sentence naming the store.
    public var description: String {
        "store \(path) changed while it was read (a writer opened it); the store is fine, read it again"
    }
}
