import DataQuality
import Dispatcher
import Foundation
import Onboarding
import Tracking
import TrackingTestKit

/// `demo [--store PATH] [--endpoint URL [--format F] [--write-key K]] [--config FILE] [--quiet]`:
/// the scripted journey, through the data-quality stages, the console and the Dispatcher.
enum JourneyCommand {
    /// The options the journey parses; `demo --help` lists them with the subcommands.
    static let spec = CommandSpec(
        name: "",
        synopsis: "[--store PATH] [--endpoint URL [--format segment|snowplow|ndjson] [--write-key K]] [--config FILE] [--quiet]",
        summary: """
        Runs a scripted journey through Onboarding, Wishlist and Basket with the console plugin
        on and the Dispatcher persisting to PATH, delivering to an NDJSON outbox beside the
        store unless --endpoint (or --config) says otherwise, then prints a summary.
        Exit 0 when every event was stored and delivered as configured, 1 when the run failed
        or the --config file is unreadable or invalid (its message names the field, or the line
        and column of a JSON syntax error), 2 on a usage mistake.
        """,
        options: [
            .value("store", "PATH", "The store (default .demo/demo.sqlite)."),
            .value("endpoint", "URL", "Where to deliver: https:// (http:// for loopback) for segment and\nsnowplow; a path or a file:// URL without a host for ndjson."),
            .value("format", "segment|snowplow|ndjson", "The endpoint's format (default segment). Needs --endpoint."),
            .value("write-key", "K", "The Segment write key (or SEGMENT_WRITE_KEY). Never printed."),
            .value("config", "FILE", "A TrackingConfiguration JSON file; --endpoint, --format and\n--write-key override it."),
            .flag("quiet", "Do not print each event."),
        ])

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        // Every option given is checked, even one another option makes irrelevant.
        let format = try options.value("format").map { try options.choice("format", default: $0, from: DestinationOptions.formats) }
        if let key = options.value("write-key"), key.isEmpty { throw UsageError("--write-key must not be empty") }
        if let endpoint = options.value("endpoint") {
            try DestinationOptions.check(endpoint: endpoint, format: format ?? "segment")
        } else if format != nil {
            throw UsageError("--format needs --endpoint URL")
        }
        let storePath = options.value("store") ?? ".demo/demo.sqlite"
        let outbox = URL(fileURLWithPath: storePath).deletingLastPathComponent().appendingPathComponent("outbox.ndjson").path
        let configuration = try loadConfiguration(options, outbox: outbox)
        let destination = try DestinationOptions.make(
            endpoint: configuration.endpoint.isFileURL ? configuration.endpoint.path : configuration.endpoint.absoluteString,
            format: configuration.format.rawValue, writeKey: configuration.writeKey, appID: configuration.appID)

        // One diagnostics hub: the Dispatcher's storage and delivery problems and the quality
        // stages' findings, observable, and tracked as events of their own below.
        let diagnostics = Diagnostics()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, destination: destination,
            batch: BatchConfig(
                maxQueueSize: configuration.batch.maxQueueSize, maxQueueBytes: configuration.batch.maxQueueBytes,
                overflowQueueSize: configuration.batch.overflowQueueSize, deliverySize: configuration.batch.deliverySize,
                flushInterval: 0),
            retryPolicy: RetryPolicy(maxAttempts: configuration.batch.maxAttempts, maxAge: configuration.batch.maxAge),
            deliveredHistory: 10_000,
            onDiagnostic: { problem in
                printError("diagnostic: \(problem)")
                diagnostics.record(problem.area == .storage ? .storage : .delivery, code: problem.area.rawValue, message: problem.message)
            }))
        guard let store = dispatcher.store else { throw DemoError("the store at \(storePath) cannot be opened: \(dispatcher.storage)") }
        let start = dispatcher.counters

        // Identifiers, session and privacy state live in the store's metadata: one file to purge.
        let identityStore = ClosureIdentityStore(
            get: { try? store.metadata($0) },
            set: { try store.setMetadata($0, $1) },
            remove: { try store.setMetadata($0, nil) })
        let contract = try configuration.contractPath.map { try DataContract.load(from: URL(fileURLWithPath: $0)) } ?? DemoContract.load()
        let quality = try DataQualityStack(configuration: configuration, store: identityStore, contract: contract, diagnostics: diagnostics)
        let bridge = ConsentBridge(dispatcher: dispatcher)
        let privacyToken = quality.privacy.observe { change in bridge.apply(change) }
        defer { quality.privacy.removeObserver(privacyToken) }

        let recorder = RecordingPlugin(name: "summary")
        var plugins: [any EventReporterPlugin] = [dispatcher, recorder]
        if !options.has("quiet") { plugins.insert(ConsoleReporter.standardOutput(), at: 0) }
        let reporter = EventReporter<OnboardingAnalytics>(plugins: plugins, processors: quality.processors)
        let diagnosticsReporter = DiagnosticsReporter(reporter: reporter.reporter(for: TrackingInternal.self))
        let diagnosticsToken = diagnosticsReporter.attach(to: diagnostics)
        defer { diagnostics.removeObserver(diagnosticsToken) }

        say("▶ journey: onboarding → wishlist → basket  (store \(storePath), delivering to \(destination))")
        ScriptedJourney(
            base: reporter,
            onConsents: { choices in
                quality.privacy.setConsent(choices.marketing ? .granted : .denied, for: Promotion.category)
            },
            onLogin: { quality.identity.logIn(userID: $0) },
            onLogout: { quality.identity.logOut() }
        ).run()
        let privacyLog = await bridge.settle()
        let drained = await dispatcher.drain(timeout: 30)
        let counters = dispatcher.counters
        await dispatcher.close()
        let outcome = RunSummary(from: start, to: counters, strandedReason: drained.timedOut ? "the drain timed out" : nil)

        let events = recorder.events
        let byCategory = Dictionary(grouping: events, by: \.category).map { "\($0.key) \($0.value.count)" }.sorted()
        let flagged = events.filter { !$0.flags.isEmpty }
        say("")
        say("summary")
        say("  events sent      \(events.count) (\(byCategory.joined(separator: ", ")))")
        say("  flagged          \(flagged.count): \(Set(flagged.flatMap { $0.flags.map(\.code) }).sorted().joined(separator: ", "))")
        say("  persisted        \(counters.persisted)")
        say("  delivered        \(counters.delivered) to \(destination)")
        say("  store now        \(counters.store)")
        say("  user             \(quality.identity.userID ?? "logged out"), installation \(quality.identity.installationID.uuidString.lowercased())")
        say("  consent          \(quality.privacy.consentDecisions.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", "))")
        for line in privacyLog { say("  privacy          \(line)") }
        let snapshot = diagnostics.snapshot()
        say("  diagnostics      \(snapshot.counters.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", "))")
        say("  drain            \(drained.timedOut ? "timed out" : "completed")")
        say("  inspect with     swift run demo monitor --store \(storePath) --status all --format json")
        say("  outcome          \(outcome.line)")
        return drained.persisted && outcome.isComplete ? 0 : 1
    }

    /// The configuration from `--config FILE`, or the demo's defaults with `--endpoint`,
    /// `--format` and `--write-key` applied.
    private static func loadConfiguration(_ options: CommandLineOptions, outbox: String) throws -> TrackingConfiguration {
        var configuration: TrackingConfiguration
        if let path = options.value("config") {
            configuration = try TrackingConfiguration.load(from: URL(fileURLWithPath: path))
        } else {
            configuration = TrackingConfiguration(endpoint: URL(fileURLWithPath: outbox))
            configuration.format = .ndjson
            configuration.appID = "demo"
            configuration.batch.deliverySize = 10
            configuration.consentCategories = [Promotion.category]
        }
        if let endpoint = options.value("endpoint") {
            let format = try options.choice("format", default: "segment", from: DestinationOptions.formats)
            configuration.format = TrackingConfiguration.Format(rawValue: format) ?? .segment
            if format == "ndjson", !endpoint.contains("://") {
                configuration.endpoint = URL(fileURLWithPath: endpoint)
            } else if let url = URL(string: endpoint) {
                configuration.endpoint = url
            } else {
                throw UsageError("--endpoint '\(endpoint)' is not a URL")
            }
        }
        if let key = options.value("write-key") { configuration.writeKey = key }
        try configuration.validate()
        return configuration
    }
}

/// A failure of the demo itself, with a clear message.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
