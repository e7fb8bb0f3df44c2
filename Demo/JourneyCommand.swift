import Dispatcher
import Foundation
import Onboarding
import Tracking
import TrackingTestKit

/// `demo [--store PATH] [--endpoint URL --format F] [--write-key K]`: the scripted journey.
enum JourneyCommand {
    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(
            arguments, valueOptions: ["store", "endpoint", "format", "write-key", "config"], flagOptions: ["quiet"])
        let storePath = options.value("store") ?? ".demo/demo.sqlite"
        let outbox = ((storePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("outbox.ndjson")
        let destination: any Destination
        if let endpoint = options.value("endpoint") {
            let format = try options.choice("format", default: "segment", from: DestinationOptions.formats)
            destination = try DestinationOptions.make(endpoint: endpoint, format: format, writeKey: options.value("write-key"))
        } else {
            destination = NDJSONFileDestination(path: outbox)
        }

        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, destination: destination,
            batch: BatchConfig(deliverySize: 10, flushInterval: 0),
            onDiagnostic: { printError("diagnostic: \($0)") }))
        let recorder = RecordingPlugin(name: "summary")
        var plugins: [any EventReporterPlugin] = [dispatcher, recorder]
        if !options.has("quiet") { plugins.insert(ConsoleReporter.standardOutput(), at: 0) }
        let reporter = EventReporter<OnboardingAnalytics>(plugins: plugins)

        say("▶ journey: onboarding → wishlist → basket")
        ScriptedJourney(base: reporter).run()
        let drained = await dispatcher.drain(timeout: 30)
        let counters = dispatcher.counters
        await dispatcher.close()

        let events = recorder.events
        let byCategory = Dictionary(grouping: events, by: \.category).map { "\($0.key) \($0.value.count)" }.sorted()
        say("")
        say("summary")
        say("  events sent      \(events.count) (\(byCategory.joined(separator: ", ")))")
        say("  flagged          \(events.filter { !$0.flags.isEmpty }.count)")
        say("  persisted        \(counters.persisted)")
        say("  delivered        \(counters.delivered) to \(destination)")
        say("  store now        \(counters.store)")
        say("  drain            \(drained.timedOut ? "timed out" : "completed")")
        say("  inspect with     swift run demo monitor --store \(storePath)")
        return drained.persisted ? 0 : 1
    }
}
