import Analytics
import Dispatcher

extension Analytics {
    /// Starts the runtime on the existing, writable store `configuration.storePath` for a
    /// command that changes it (`flush`, `requeue`), and waits until the store is open.
    ///
    /// A store that is missing, a folder, empty, read-only, or a file that is not a store is
    /// refused untouched with a ``StoreFileRefusal`` saying why (exit 1): opening would create a
    /// missing store, so the file is checked first (see ``StoreFileCheck``).
    /// - Parameter command: the command's name, used in the refusal (`cannot flush PATH: …`).
    static func openingExistingStore(_ configuration: AnalyticsConfiguration, for command: String) async throws -> Analytics {
        let path = configuration.storePath
        try StoreFileCheck.require(path, writingFor: command)
        do {
            let analytics = try Analytics(configuration: configuration)
            try await analytics.requireStore()
            return analytics
        } catch StoreError.cannotOpen(_, let reason, _) {
            throw StoreFileRefusal("cannot \(command) \(path): \(reason)")
        }
    }
}
