import Analytics
import DataQuality
import Dispatcher
import Foundation
import Onboarding
import Tracking
import Workload

/// The send cost on the path an app runs, `analytics.reporter(for:)`, with every data-quality
/// stage on: privacy gate (a consent category), contract validator, duplicate detector,
/// hydration and redaction (the default sensitive keys, hashed), on a store of its own.
struct StackPhase {
    /// The contract the stack validates against.
    let contractJSON: String
    /// The userData of each send, in order: made beforehand, so only `send` is timed.
    let userData: [UserData]
    /// Rounds of the stage breakdown, after the other sends (none when 0): each sends one
    /// distinct event through every reporter of a ``StageBreakdown``.
    var breakdownRounds = 0
    /// The folder the store and contract go in.
    let directory: URL
    /// Whether the web inspector is on (nobody connected to it).
    var inspector = false

    /// What one run measured.
    struct Figures {
        /// Each send's cost, sorted.
        let latencies: [UInt64]
        /// The median cost of the ``SendReference`` timed before each send.
        let referenceMedian: UInt64
        /// The median of each send's cost over the reference timed just before it
        /// (``Median/ratio(of:over:)``).
        let referenceRatio: Double
        /// The store's bytes per event after close.
        let bytesPerEvent: Double
        /// Where the time goes, stage by stage (empty unless asked for).
        let stages: [StageBreakdown<OnboardingAnalytics>.Stage]
    }

    /// Sends every `userData` through the stack, then the breakdown's rounds; drains and closes.
    /// - Throws: ``BenchError`` when a stage is not on or an event did not reach the store.
    func run(name: String) async throws -> Figures {
        let (stack, storePath) = try await start(name: name)
        let app = LoadGenerator(reporter: stack.reporter(for: OnboardingAnalytics.self))
        var latencies = [UInt64](repeating: 0, count: userData.count)
        var references = latencies
        var reference = SendReference()
        for index in userData.indices {
            let data = userData[index]
            // The reference just before each send, so that a change of the machine's speed falls
            // on both; on the previous send's userData, so that it brings none of this one's into
            // the cache.
            let referenceStart = DispatchTime.now().uptimeNanoseconds
            reference.run(userData[max(0, index - 1)])
            let start = DispatchTime.now().uptimeNanoseconds
            app.send(index, userData: data)
            let end = DispatchTime.now().uptimeNanoseconds
            references[index] = start - referenceStart
            latencies[index] = end - start
        }
        var breakdown = StageBreakdown<OnboardingAnalytics>.Measurement(stages: [], sent: 0)
        if breakdownRounds > 0 {
            let stages = StageBreakdown(reporter: stack.reporter(for: OnboardingAnalytics.self))
            let apps = stages.reporters.map(LoadGenerator.init(reporter:))
            let offset = userData.count
            breakdown = stages.measure(rounds: breakdownRounds) { index in
                (offset + index, app.distinctUserData(for: offset + index))
            } send: { reporter, input in
                apps[reporter].send(input.0, userData: input.1)
            }
        }
        let sent = latencies.count + breakdown.sent
        try await Self.finish(stack, sent: sent)
        let referenceRatio = Median.ratio(of: latencies, over: references)
        latencies.sort()
        guard reference.sink != 0 || userData.isEmpty else { throw BenchError("the send reference did no work") }
        return Figures(latencies: latencies, referenceMedian: Median.of(references, empty: 0), referenceRatio: referenceRatio, bytesPerEvent: (Double(StoredSize.fileBytes(storePath)) / Double(sent)).rounded(), stages: breakdown.stages)
    }

    /// Starts this phase's stack on a store and contract of its own named `name`, and waits
    /// until it is ready; returns it and its store's path.
    /// - Throws: ``BenchError`` when a stage (or the inspector, when asked for) is not on.
    func start(name: String) async throws -> (stack: Analytics, storePath: String) {
        let contractPath = directory.appendingPathComponent("\(name)-contract.json").path
        try Data(contractJSON.utf8).write(to: URL(fileURLWithPath: contractPath))
        let storePath = directory.appendingPathComponent("\(name).sqlite").path
        var configuration = AnalyticsConfiguration.commandLine(storePath: storePath)
        configuration.contractPath = contractPath
        configuration.consentCategories = ["Marketing"]
        configuration.batch = BatchConfiguration(maxQueueBytes: Benchmark.backlogByteBudget)
        configuration.inspector = inspector ? .init() : nil
        let stack = try Analytics(configuration: configuration)
        await stack.ready()
        guard !inspector || stack.inspectorURL != nil else { throw BenchError("the inspector did not start") }
        guard stack.quality.validator != nil, !configuration.redaction.keys.isEmpty, configuration.duplicateWindow > 0 else {
            throw BenchError("the full stack is not on: contract, redaction and duplicates must all be configured")
        }
        return (stack, storePath)
    }

    /// Drains and closes `stack`, which was sent `sent` events.
    /// - Throws: ``BenchError`` when one of them did not reach the store.
    static func finish(_ stack: Analytics, sent: Int) async throws {
        let drained = await stack.drain(timeout: 600)
        let counters = stack.counters
        await stack.close()
        guard drained.persisted, counters.persisted == sent else {
            throw BenchError("full stack sends incomplete: \(counters.persisted) of \(sent) persisted")
        }
    }
}
