import Foundation
import Tracking

/// Tallies what the journey sent, for its closing summary: events per category, and the
/// quality flags they carried.
final class SummaryPlugin: EventReporterPlugin {
    /// What was tallied so far.
    private struct Tally {
        var byCategory: [String: Int] = [:]
        var flaggedCount = 0
        var flagCodes: Set<String> = []
    }

    private let counts = LockedValue(Tally())

    /// Tallies the event; the receipt's form is `summary`.
    func send(_ event: TrackedEvent) -> Receipt? {
        counts.withLock {
            $0.byCategory[event.category, default: 0] += 1
            if !event.flags.isEmpty {
                $0.flaggedCount += 1
                $0.flagCodes.formUnion(event.flags.map(\.code))
            }
        }
        return Receipt(plugin: "summary", eventID: event.id, form: "summary")
    }

    /// What was tallied: the events per category, how many were flagged, and the flag codes.
    var tally: (byCategory: [String: Int], flagged: Int, flagCodes: Set<String>) {
        counts.withLock { ($0.byCategory, $0.flaggedCount, $0.flagCodes) }
    }
}
