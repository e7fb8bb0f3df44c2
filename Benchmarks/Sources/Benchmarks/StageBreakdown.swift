import Foundation
import Tracking

/// Where a send's nanoseconds go, measured through real ``EventReporter``s: the reporter with no
/// stage and no plugin, then with its stages added one at a time, then the reporter itself (every
/// stage and its plugins). A stage's cost is the p50 with it less the p50 without it.
///
/// Each round sends one event through every one of these reporters in turn, so that all of them
/// run on the same machine at the same moment; every event is distinct, so no stage sees a
/// repeat. Only the last reporter reaches the plugins.
public struct StageBreakdown<Feature: EventType> {
    /// The reporters timed, in order: none of the stages and no plugin, the first stage, the
    /// first two, … every stage, then every stage and the plugins.
    public let reporters: [EventReporter<Feature>]
    /// The name of each cost: `event`, each stage's type name in `snake_case`, then `plugins`'s.
    public let names: [String]

    /// One stage's cost.
    public struct Stage: Equatable, Sendable {
        /// `snake_case` of the stage's type name, or `event` and the plugins' name.
        public let name: String
        /// The p50 cost of one event with the stage less the p50 without it, in nanoseconds (0
        /// when noise makes it negative).
        public let nanosecondsP50: UInt64
    }

    /// The stages' costs, and how many events the plugins took.
    public struct Measurement: Sendable {
        /// `event` (the reporter's own work), each stage, then the plugins.
        public let stages: [Stage]
        /// Sends through the whole reporter that some plugin took (gave a receipt).
        public let sent: Int
    }

    /// The breakdown of `reporter`; `plugins` names the cost of its plugins.
    public init(reporter: EventReporter<Feature>, plugins: String = "dispatcher") {
        let stages = reporter.processors
        reporters = (0...stages.count).map {
            EventReporter<Feature>(plugins: [], processors: Array(stages.prefix($0)), violationHandler: reporter.violationHandler)
        } + [reporter]
        names = ["event"] + stages.map { Self.snakeCase(String(describing: type(of: $0))) } + [plugins]
    }

    /// Runs `rounds` rounds; in each, for every reporter `k` in turn, makes an input with
    /// `input(index)` (untimed, `index` distinct across the run) and times `send(k, input)`.
    public func measure<Input>(rounds: Int, input: (Int) -> Input, send: (_ reporter: Int, _ input: Input) -> [Receipt]) -> Measurement {
        var samples = [[UInt64]](repeating: [], count: reporters.count)
        for index in samples.indices { samples[index].reserveCapacity(rounds) }
        var sent = 0
        for round in 0..<rounds {
            for reporter in reporters.indices {
                let made = input(round * reporters.count + reporter)
                let start = DispatchTime.now().uptimeNanoseconds
                let receipts = send(reporter, made)
                samples[reporter].append(DispatchTime.now().uptimeNanoseconds - start)
                if reporter == reporters.count - 1, !receipts.isEmpty { sent += 1 }
            }
        }
        let medians = samples.map { Int64(Median.of($0, empty: 0)) }
        let costs = medians.indices.map { $0 == 0 ? medians[0] : medians[$0] - medians[$0 - 1] }
        let stages = zip(names, costs).map { Stage(name: $0, nanosecondsP50: UInt64(max(0, $1))) }
        return Measurement(stages: stages, sent: sent)
    }

    /// `ContextHydrator` → `context_hydrator`.
    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result.append("_") }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
