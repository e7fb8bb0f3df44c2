import Foundation

/// Deletions for privacy asked for while the store was not open, applied to what it holds when it
/// opens, before its journal is replayed or anything is delivered. Everything the store and the
/// journal hold then was sent before those calls (what was sent since waits in memory).
struct PendingErasure: Sendable, Equatable, Codable {
    /// Delete every event (opt-out, purge).
    var events = false
    /// Delete the metadata too (purge).
    var metadata = false
    /// Categories whose held events are deleted (consent denied).
    var heldCategories: Set<String> = []

    /// Every event and the metadata.
    static var everything: PendingErasure {
        var pending = PendingErasure()
        pending.events = true
        pending.metadata = true
        return pending
    }

    /// Adds what `other` asks for.
    mutating func merge(_ other: PendingErasure) {
        events = events || other.events
        metadata = metadata || other.metadata
        heldCategories.formUnion(other.heldCategories)
    }

    /// Whether nothing is asked for.
    var isEmpty: Bool { !events && heldCategories.isEmpty }

    /// Deletes every event (and with ``metadata`` the metadata) from `store`, and removes the
    /// journal files in `journalDirectory`: called before the journal is replayed, and before
    /// delivery starts, so none of them can leave.
    func eraseEvents(in store: EventStore, journalDirectory: String) throws {
        guard events else { return }
        try store.erase(keepingMetadata: !metadata)
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: journalDirectory)) ?? [] {
            _ = unlink(journalDirectory + "/" + name)
        }
    }

    /// Deletes the held events of ``heldCategories``, once the journal was replayed into the
    /// store (held events are never delivered, so delivery may have started), and removes the
    /// journal files that held them.
    func deleteHeld(in ingest: IngestWriter) throws {
        guard !heldCategories.isEmpty else { return }
        _ = ingest.waitUntilPersisted(timeout: Dispatcher.privacySettleTimeout, whileProgressing: true)
        for category in heldCategories.sorted() { _ = try ingest.store.deleteHeld(category: category) }
        ingest.scrubJournal()
    }
}
