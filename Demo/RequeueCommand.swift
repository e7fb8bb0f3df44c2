import Analytics
import Dispatcher
import Foundation
import Workload

/// `demo requeue --store PATH`: returns the store's rejected events to pending, attempts reset,
/// and prints how many.
///
/// Exit 0 on success (also when nothing was rejected), 1 with a message saying why when the
/// store is missing or cannot be changed (the same reasons `flush` gives), 2 on a usage mistake.
enum RequeueCommand {
    /// The options `requeue` parses and its help lists.
    static let spec = CommandSpec(
        name: "requeue",
        synopsis: "--store PATH",
        summary: """
        Returns the store's rejected events to pending, attempts reset, and prints how many;
        the next flush delivers them.
        Exit 0 on success (also when nothing was rejected), 1 when the store is missing or
        cannot be changed, 2 on a usage mistake.
        """,
        options: [
            .value("store", "PATH", "The store to change. Required; it must exist."),
        ],
        brief: "Returns rejected events to pending.")

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        guard let path = options.value("store") else { throw UsageError("requeue needs --store PATH") }
        var configuration = AnalyticsConfiguration.commandLine(storePath: path)
        configuration.batch = AnalyticsConfiguration.unboundedBatch
        configuration.strategies = []
        // Only an existing, writable store, checked as flush checks it: anything else is
        // refused, untouched, with the reason (exit 1).
        let analytics = try await Analytics.openingExistingStore(configuration, for: "requeue")
        do {
            let requeued = try analytics.dispatcher.requeueRejected()
            say("requeue: \(requeued) rejected events are pending again (\(analytics.counters.store))")
        } catch {
            await analytics.close(timeout: 1)
            throw error
        }
        await analytics.close(timeout: 1)
        return 0
    }
}
