import Foundation
import Tracking

/// The first event of a run of identical contents, as the duplicate memory keeps it in its ring:
/// a value holding no reference, so remembering one allocates and retains nothing.
struct RememberedContent {
    /// The 128-bit fingerprint of its category, name, action and userData.
    let fingerprint: ContentFingerprint
    let id: UUID
    let timestamp: Date
    /// The id as text, written the first time a duplicate names it.
    var idText: String?

    /// Remembers the event `id` at `timestamp`, whose content has `fingerprint`.
    init(fingerprint: ContentFingerprint, id: UUID, timestamp: Date) {
        self.fingerprint = fingerprint
        self.id = id
        self.timestamp = timestamp
    }
}
