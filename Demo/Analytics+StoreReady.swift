import Analytics
import Dispatcher

extension Analytics {
    /// Waits until the store, opened in the background, is ready, so that what a command reads
    /// and prints counts what an earlier run left; throws, having closed, when it cannot be
    /// opened (a command has nothing to do without it).
    func requireStore() async throws {
        guard case .unavailable(let reason) = await ready() else { return }
        await close(timeout: 1)
        throw StoreError.cannotOpen(path: dispatcher.configuration.storePath, reason: reason, errno: nil)
    }
}
