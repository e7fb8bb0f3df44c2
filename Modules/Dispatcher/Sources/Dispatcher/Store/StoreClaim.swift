import Foundation

/// A writer's claim on a store, taken before the store is opened (see `EventStore.claim(path:)`):
/// the lock, and the data protection problems met while taking it.
struct StoreClaim: Sendable {
    /// The writer's lock on the store.
    let lock: StoreLock
    /// Data protection that could not be applied to the folder or the lock file.
    let protectionProblems: [String]
}
