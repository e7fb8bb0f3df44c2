import Foundation
import Tracking

// Recovering: what a restart reads back from a journal folder.
extension EventJournal {
    /// Every event readable in the segments of `directory`, in order: what a restart recovers.
    /// Damaged records are skipped.
    static func recover(directory: String) throws -> [EncodedEvent] {
        let journal = try EventJournal(directory: directory)
        defer { journal.close() }
        var events: [EncodedEvent] = []
        var position = JournalPosition.start
        while true {
            let batch = journal.read(from: position, maxRecords: 4_096)
            events.append(contentsOf: batch.events)
            if batch.events.isEmpty && batch.next == position { break }
            position = batch.next
            if batch.events.isEmpty, !journal.hasRecords(after: position) { break }
        }
        return events
    }

    /// Whether records exist after `position`.
    func hasRecords(after position: JournalPosition) -> Bool {
        state.withLock { $0.hasRecords(after: position) }
    }
}
