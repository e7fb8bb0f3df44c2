import Analytics
import DataQuality
import Dispatcher
import Foundation
import Tracking
import Workload

/// `demo privacy --store PATH --decide ACTION`: stores events that wait for consent, then makes
/// one privacy decision; with `--wait` it then waits to be ended (the crash tests kill it there).
///
/// Exit 0 on success, 1 when the store cannot be used, 2 on a usage mistake.
enum PrivacyCommand {
    /// The options `privacy` parses and its help lists.
    static let spec = CommandSpec(
        name: "privacy",
        synopsis: "--store PATH --decide granted|denied|optout|purge [--count N] [--note TEXT] [--settle] [--wait]",
        summary: """
        Stores N events of the Promotion feature, which needs consent (they are held), each with
        userData note=TEXT-i, then applies one privacy decision: consent granted or denied for
        Promotion, opt-out, or purge. Prints "decided ACTION" once the call returned (with
        --settle, once its effect on the stored events is applied too).
        Exit 0 on success, 1 when the store cannot be used, 2 on a usage mistake.
        """,
        options: [
            .value("store", "PATH", "The store; created when missing. Required."),
            .value("decide", "ACTION", "granted, denied, optout or purge. Required."),
            .value("count", "N", "How many Promotion events to store first (default 1000)."),
            .value("note", "TEXT", "The prefix of each event's note (default promotion)."),
            .flag("settle", "Print only once the decision's effect is applied."),
            .flag("wait", "After printing, wait to be ended instead of closing."),
        ],
        brief: "Stores held events, then grants, denies, opts out or purges.")

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        guard let path = options.value("store") else { throw UsageError("privacy needs --store PATH") }
        let decision = options.value("decide") ?? ""
        guard ["granted", "denied", "optout", "purge"].contains(decision) else {
            throw UsageError("--decide takes granted, denied, optout or purge, got '\(decision)'")
        }
        let count = try options.int("count", default: 1_000, in: 0...1_000_000)
        let note = options.value("note") ?? "promotion"
        var configuration = AnalyticsConfiguration.commandLine(storePath: path)
        configuration.batch = AnalyticsConfiguration.unboundedBatch
        configuration.strategies = []
        configuration.consentCategories = [Promotion.category]
        let analytics = try Analytics(configuration: configuration)
        try await analytics.requireStore()
        let promotion = analytics.reporter(for: Promotion.self)
        for index in 0..<count { promotion.send(name: .banner, action: .view, userData: ["note": .string("\(note)-\(index)")]) }
        _ = await analytics.drain(timeout: 60)
        say("stored: \(analytics.counters.store)")
        switch decision {
        case "granted": analytics.setConsent(.granted, for: Promotion.category)
        case "denied": analytics.setConsent(.denied, for: Promotion.category)
        case "optout": analytics.optOut()
        default: await analytics.purge()
        }
        if options.has("settle") { await analytics.settle() }
        say("decided \(decision)")
        if options.has("wait") {
            while true { try? await Task.sleep(nanoseconds: 1_000_000_000) }
        }
        await analytics.close(timeout: 5)
        return 0
    }
}
