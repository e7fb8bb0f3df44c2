import Analytics
import DataQuality
import Dispatcher
import Foundation
import Onboarding
import Tracking

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
            .value("config", "FILE", "An AnalyticsConfiguration JSON file; --store, --endpoint, --format\nand --write-key override it."),
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
        let configuration = try loadConfiguration(options)
        let storePath = configuration.storePath
        let recorder = SummaryPlugin()
        let analytics = try Analytics(
            configuration: configuration,
            plugins: options.has("quiet") ? [recorder] : [ConsoleReporter(), recorder],
            contract: configuration.contractPath == nil ? try DemoContract.load() : nil)
        try await analytics.requireStore()
        let diagnosticsToken = analytics.diagnostics.observe { update in
            // Storage and delivery problems are printed; the stages' findings are flags on the events.
            if case .issue(let issue) = update, issue.kind == .storage || issue.kind == .delivery {
                printError("diagnostic: \(issue.kind.rawValue): \(issue.message)")
            }
        }
        defer { analytics.diagnostics.removeObserver(diagnosticsToken) }
        let start = analytics.counters
        let reporter = analytics.reporter(for: OnboardingAnalytics.self)

        say("▶ journey: onboarding → wishlist → basket  (store \(storePath), delivering to \(configuration.destination))")
        ScriptedJourney(
            base: reporter,
            onConsents: { choices in
                analytics.setConsent(choices.marketing ? .granted : .denied, for: Promotion.category)
            },
            onLogin: { analytics.identify(userID: $0, traits: $1) },
            onLogout: { analytics.logOut() }
        ).run()
        let privacyLog = await analytics.settle()
        let drained = await analytics.drain(timeout: 30)
        let counters = analytics.counters
        let userID = analytics.userID
        let installationID = analytics.installationID
        let consent = analytics.quality.privacy.consentDecisions
        let snapshot = analytics.diagnostics.snapshot()
        await analytics.close()
        let outcome = RunSummary(from: start, to: counters, strandedReason: drained.timedOut ? "the drain timed out" : nil)
        let destination = configuration.destination

        let tally = recorder.tally
        let byCategory = tally.byCategory.map { "\($0.key) \($0.value)" }.sorted()
        say("")
        say("summary")
        say("  events sent      \(tally.byCategory.values.reduce(0, +)) (\(byCategory.joined(separator: ", ")))")
        say("  flagged          \(tally.flagged): \(tally.flagCodes.sorted().joined(separator: ", "))")
        say("  persisted        \(counters.persisted)")
        say("  delivered        \(counters.delivered) to \(destination)")
        say("  store now        \(counters.store)")
        say("  user             \(userID ?? "logged out"), installation \(installationID.uuidString.lowercased())")
        say("  consent          \(consent.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", "))")
        for line in privacyLog { say("  privacy          \(line)") }
        say("  diagnostics      \(snapshot.counters.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", "))")
        say("  drain            \(drained.timedOut ? "timed out" : "completed")")
        say("  inspect with     swift run demo monitor --store \(storePath) --status all --format json")
        say("  outcome          \(outcome.line)")
        return drained.persisted && outcome.isComplete ? 0 : 1
    }

    /// The configuration from `--config FILE`, or the demo's defaults, with `--store`,
    /// `--endpoint`, `--format` and `--write-key` applied.
    static func loadConfiguration(_ options: CommandLineOptions) throws -> AnalyticsConfiguration {
        var configuration: AnalyticsConfiguration
        if let path = options.value("config") {
            configuration = try AnalyticsConfiguration(contentsOf: URL(fileURLWithPath: path))
        } else {
            configuration = AnalyticsConfiguration(storePath: ".demo/demo.sqlite")
            configuration.appID = "demo"
            configuration.batch.deliverySize = 10
            configuration.consentCategories = [Promotion.category]
            configuration.deliveredHistory = 10_000
        }
        if let store = options.value("store") { configuration.storePath = store }
        // Without an endpoint, the demo delivers to an NDJSON outbox beside the store.
        if configuration.destination.format == .none || options.value("endpoint") != nil {
            let outbox = URL(fileURLWithPath: configuration.storePath).deletingLastPathComponent().appendingPathComponent("outbox.ndjson").path
            let format = try options.choice("format", default: options.value("endpoint") == nil ? "ndjson" : "segment", from: DestinationOptions.formats)
            configuration.destination = try DestinationOptions.settings(
                endpoint: options.value("endpoint") ?? outbox, format: format, writeKey: options.value("write-key"))
        } else if options.value("write-key") != nil {
            configuration.destination.writeKey = options.value("write-key")
        }
        try configuration.validate()
        return configuration
    }
}
