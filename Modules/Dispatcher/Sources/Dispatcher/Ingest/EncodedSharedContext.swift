import Foundation
import Tracking

/// A ``Tracking/SharedContext`` encoded once: its JSON object and a content hash, the key under
/// which the journal and the store keep it once for every event that refers to it.
package final class EncodedSharedContext: Sendable, Equatable {
    /// A 64-bit hash of ``json``: equal JSON, equal hash.
    package let hash: UInt64
    /// The shared values as a JSON object.
    package let json: [UInt8]
    /// Whether a value was nested too deep and cut (see ``Tracking/EventFlag/contextTruncated``).
    package let truncated: Bool

    /// Wraps JSON read back from a journal or a store.
    package init(json: [UInt8], truncated: Bool = false) {
        self.json = json
        self.truncated = truncated
        hash = json.withUnsafeBytes { JournalRecord.hash64($0) }
    }

    /// Encodes `shared`'s values.
    package convenience init(_ shared: SharedContext) {
        let (json, truncated) = EncodedEvent.json(shared.values)
        self.init(json: json, truncated: truncated)
    }

    /// The shared context a record of `event` refers to, encoded once per instance: `nil` when
    /// the event has none or an empty one (`{}` shares nothing); and whether it was cut.
    static func reference(of event: TrackedEvent) -> (context: EncodedSharedContext?, truncated: Bool) {
        reference(event.sharedContext.map(cached))
    }

    /// What a record refers to for a shared context encoded as `encoded` (see ``reference(of:)``).
    static func reference(_ encoded: EncodedSharedContext?) -> (context: EncodedSharedContext?, truncated: Bool) {
        guard let encoded else { return (nil, false) }
        return (encoded.json.count > 2 ? encoded : nil, encoded.truncated)
    }

    /// Equal when the JSON is.
    package static func == (lhs: EncodedSharedContext, rhs: EncodedSharedContext) -> Bool {
        lhs === rhs || (lhs.hash == rhs.hash && lhs.json == rhs.json)
    }

    /// The encoded form of `shared`, encoded once per instance: senders of one session share
    /// one ``SharedContext``, so this is a pointer comparison in the common case.
    static func cached(_ shared: SharedContext) -> EncodedSharedContext { cache.encoded(shared) }

    private static let cache = EncodedSharedContextCache()
}

/// Encoded shared contexts by instance identity, bounded: a process has one per session.
final class EncodedSharedContextCache: Sendable {
    private struct Entries: Sendable {
        var last: (shared: SharedContext, encoded: EncodedSharedContext)?
        /// Keyed by identity; the entry keeps its instance alive, so an identifier is never reused
        /// while it is in here.
        var byIdentity: [ObjectIdentifier: (shared: SharedContext, encoded: EncodedSharedContext)] = [:]
    }

    private let entries = LockedValue(Entries())
    private static let capacity = 64

    /// The encoded form of `shared`, encoding it on first sight.
    func encoded(_ shared: SharedContext) -> EncodedSharedContext {
        let known: EncodedSharedContext? = entries.withLock { entries in
            if let last = entries.last, last.shared === shared { return last.encoded }
            guard let entry = entries.byIdentity[ObjectIdentifier(shared)] else { return nil }
            entries.last = entry
            return entry.encoded
        }
        if let known { return known }
        let encoded = EncodedSharedContext(shared)
        entries.withLock { entries in
            if entries.byIdentity.count >= Self.capacity { entries.byIdentity.removeAll(keepingCapacity: true) }
            entries.byIdentity[ObjectIdentifier(shared)] = (shared, encoded)
            entries.last = (shared, encoded)
        }
        return encoded
    }
}
