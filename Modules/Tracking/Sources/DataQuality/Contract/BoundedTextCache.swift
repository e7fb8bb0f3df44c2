import Foundation
import Tracking

/// Text made from a key, remembered for up to `capacity` keys (later keys are made each time),
/// so that memory stays bounded whatever keys events carry.
final class BoundedTextCache: Sendable {
    private let texts = LockedValue<[String: String]>([:])
    private let capacity: Int

    /// An empty cache remembering at most `capacity` keys.
    init(capacity: Int) { self.capacity = capacity }

    /// The text for `key`: the remembered one, or `make()`'s, remembered while there is room.
    func text(for key: String, make: () -> String) -> String {
        if let known = texts.withLock({ $0[key] }) { return known }
        let made = make()
        texts.withLock { texts in if texts.count < capacity { texts[key] = made } }
        return made
    }
}
