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
        guard let shared = event.sharedContext.map(cached) else { return (nil, false) }
        return (shared.json.count > 2 ? shared : nil, shared.truncated)
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
final class EncodedSharedContextCache: @unchecked Sendable {
    // Safe: every field is touched only while holding `lock`.
    private let lock = NSLock()
    private var last: (shared: SharedContext, encoded: EncodedSharedContext)?
    /// Keyed by identity; the entry keeps its instance alive, so an identifier is never reused
    /// while it is in here.
    private var entries: [ObjectIdentifier: (shared: SharedContext, encoded: EncodedSharedContext)] = [:]
    private static let capacity = 64

    /// The encoded form of `shared`, encoding it on first sight.
    func encoded(_ shared: SharedContext) -> EncodedSharedContext {
        lock.lock()
        if let last, last.shared === shared {
            lock.unlock()
            return last.encoded
        }
        if let entry = entries[ObjectIdentifier(shared)] {
            last = entry
            lock.unlock()
            return entry.encoded
        }
        lock.unlock()
        let encoded = EncodedSharedContext(shared)
        lock.withLock {
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[ObjectIdentifier(shared)] = (shared, encoded)
            last = (shared, encoded)
        }
        return encoded
    }
}
