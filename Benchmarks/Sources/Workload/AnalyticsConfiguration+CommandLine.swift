import Analytics
import Dispatcher
import Foundation

/// The runtime configuration the subcommands (`generate`, `flush`, `requeue`, `bench`) start
/// their ``Analytics`` with: exactly the events the command sends, nothing more.
extension AnalyticsConfiguration {
    /// A configuration for a command-line run on `storePath`, delivering nowhere: no app
    /// notifications to observe, and the runtime's own problems are printed by the command
    /// rather than sent as events, so the counts are the command's events only.
    public static func commandLine(storePath: String) -> AnalyticsConfiguration {
        var configuration = AnalyticsConfiguration(storePath: storePath)
        configuration.appID = "demo"
        configuration.diagnostics.trackAsEvents = false
        configuration.lifecycle.observeNotifications = false
        return configuration
    }

    /// Queue bounds no stored backlog reaches (opening a store never evicts what it holds),
    /// 500 events a request, no timer: for commands that deliver or change an existing store.
    public static let unboundedBatch = BatchConfiguration(maxQueueSize: Int.max / 2, maxQueueBytes: Int.max / 2, deliverySize: 500, flushInterval: 0)
}
