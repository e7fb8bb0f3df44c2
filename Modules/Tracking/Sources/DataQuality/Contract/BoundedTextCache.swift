import Foundation

/// Text made from a key, remembered for up to `capacity` keys (later keys are made each time),
/// so that memory stays bounded whatever keys events carry.
final class BoundedTextCache: @unchecked Sendable {
    // Safe: `texts` is only touched while holding `lock`.
    private let lock = NSLock()
    private var texts: [String: String] = [:]
    private let capacity: Int

    /// An empty cache remembering at most `capacity` keys.
    init(capacity: Int) { self.capacity = capacity }

    /// The text for `key`: the remembered one, or `make()`'s, remembered while there is room.
    func text(for key: String, make: () -> String) -> String {
        if let known = lock.withLock({ texts[key] }) { return known }
        let made = make()
        lock.withLock { if texts.count < capacity { texts[key] = made } }
        return made
    }
}
