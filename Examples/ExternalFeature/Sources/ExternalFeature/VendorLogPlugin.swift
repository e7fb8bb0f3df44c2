import Foundation
import Tracking

/// A plugin of the feature's own: keeps a vendor-style `track` line per event and returns it
/// as the receipt's form.
final class VendorLogPlugin: EventReporterPlugin, @unchecked Sendable {
    // Safe: `storage` is only touched while holding `lock`.
    private let lock = NSLock()
    private var storage: [String] = []

    /// The lines produced so far, in order.
    var lines: [String] { lock.withLock { storage } }

    func send(_ event: TrackedEvent) -> Receipt? {
        let line = "track event=\(event.category).\(event.name).\(event.action) properties=\(UserDataValue.object(event.userData).description)"
        lock.withLock { storage.append(line) }
        return Receipt(plugin: "vendor-log", eventID: event.id, form: line)
    }
}
