import Dispatcher
import Foundation

/// The counts a command ends with: what was sent through the Dispatcher during the command,
/// and what became of it (persisted, refused with the reasons, evicted, delivered, stranded).
struct RunSummary {
    /// Events handed to the Dispatcher.
    var sent: Int
    /// Events of this run that reached the store.
    var persisted: Int
    /// Events refused at `send`.
    var refused: Int
    /// Refusals by reason.
    var refusals: [RefusalReason: Int]
    /// The last refusal's reason and cause.
    var lastRefusal: String?
    /// Events evicted by the byte budget or the count bound during the run.
    var evicted: Int
    /// Events the destination acknowledged during the run.
    var delivered: Int
    /// Events accepted but not in the store when the command ended (still in the journal or
    /// in memory), with why.
    var stranded: Int
    var strandedReason: String?
    /// What the journal an earlier run left could not replay, by cause (found when the store
    /// opened, so not a difference between start and end).
    var journalLosses: [JournalLossCause: Int]
    /// Events lost with a store file deleted or replaced during the run (they had been persisted).
    var lostWithStore: Int

    /// The difference between counters read when the command started and when it ended.
    /// - Parameter strandedReason: why events were not in the store at the end, when known;
    ///   otherwise the summary says where they wait.
    init(from start: DispatcherCounters, to end: DispatcherCounters, strandedReason: String? = nil) {
        sent = end.sent - start.sent
        persisted = end.persisted - start.persisted
        refused = end.refused - start.refused
        refusals = end.refusals.merging(start.refusals.mapValues { -$0 }) { $0 + $1 }.filter { $0.value > 0 }
        lastRefusal = refused > 0 ? end.lastRefusal : nil
        evicted = end.evicted - start.evicted
        delivered = end.delivered - start.delivered
        journalLosses = end.journalLosses
        // Records cut from a segment while running are lost, not waiting (contexts among them: at most).
        stranded = max(0, sent - refused - persisted - (end.journalLosses[.cutWhileRunning] ?? 0) + (start.journalLosses[.cutWhileRunning] ?? 0))
        lostWithStore = end.lostWithStore - start.lostWithStore
        let inMemory = min(stranded, end.buffered)
        var places: [String] = []
        if stranded > inMemory { places.append("\(stranded - inMemory) in the journal, stored on the next start") }
        if inMemory > 0 { places.append("\(inMemory) in memory, lost when the process ends") }
        self.strandedReason = stranded > 0
            ? [strandedReason, places.joined(separator: ", ")].compactMap { $0 }.joined(separator: ": ") : nil
    }

    /// Nothing refused, evicted or stranded, and no damage found in the journal. An evicted
    /// event was accepted and then dropped by the queue bounds: it will never be delivered, so
    /// a run that evicted is not complete.
    var isComplete: Bool { refused == 0 && evicted == 0 && stranded == 0 && journalLosses.isEmpty && lostWithStore == 0 }

    /// `sent 1000, persisted 1000, refused 0, evicted 0, delivered 0, stranded 0`, followed by
    /// the reasons for anything refused, evicted or stranded.
    var line: String {
        // Events that went with a deleted store file are not counted as persisted: no store has them.
        var text = "sent \(sent), persisted \(max(0, persisted - lostWithStore)), refused \(refused), evicted \(evicted), delivered \(delivered), stranded \(stranded)"
        if refused > 0 {
            let reasons = refusals.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            text += "; refused: \(reasons)" + (lastRefusal.map { " (last: \($0))" } ?? "")
        }
        if evicted > 0 { text += "; evicted: the oldest pending events, dropped by the queue bounds, will never be delivered" }
        if let strandedReason { text += "; stranded: \(strandedReason)" }
        if lostWithStore > 0 {
            text += "; lost with the store: \(lostWithStore) persisted events went with a store file deleted or replaced while running (a new store was created)"
        }
        if !journalLosses.isEmpty {
            let causes = JournalLossCause.allCases.compactMap { cause in journalLosses[cause].map { "\($0) \(cause)" } }
            let kept = journalLosses.keys.contains { $0 != .cutWhileRunning } ? " (damaged files kept in the journal folder)" : ""
            text += "; journal lost: " + causes.joined(separator: ", ") + kept
        }
        return text
    }
}
