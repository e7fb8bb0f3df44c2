import Foundation
import Tracking

/// Tallies what the journey sent, for its closing summary: events per category, and the
/// quality flags they carried.
final class SummaryPlugin: EventReporterPlugin, @unchecked Sendable {
    // Safe: `byCategory`, `flaggedCount` and `flagCodes` are only touched while holding `lock`.
    private let lock = NSLock()
    private var byCategory: [String: Int] = [:]
    private var flaggedCount = 0
    private var flagCodes: Set<String> = []

    /// Tallies the event; the receipt's form is `summary`.
    func send(_ event: TrackedEvent) -> Receipt? {
        lock.withLock {
            byCategory[event.category, default: 0] += 1
            if !event.flags.isEmpty {
                flaggedCount += 1
                flagCodes.formUnion(event.flags.map(\.code))
            }
        }
        return Receipt(plugin: "summary", eventID: event.id, form: "summary")
    }

    /// What was tallied: the events per category, how many were flagged, and the flag codes.
    var tally: (byCategory: [String: Int], flagged: Int, flagCodes: Set<String>) {
        lock.withLock { (byCategory, flaggedCount, flagCodes) }
    }
}
