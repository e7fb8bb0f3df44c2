import Foundation
import Tracking

/// A plugin of the feature's own: keeps a vendor-style `track` line per event and returns it
/// as the receipt's form.
final class VendorLogPlugin: EventReporterPlugin {
    private let storage = LockedValue<[String]>([])

    /// The lines produced so far, in order.
    var lines: [String] { storage.withLock { $0 } }

    func send(_ event: TrackedEvent) -> Receipt? {
        let line = "track event=\(event.category).\(event.name).\(event.action) properties=\(UserDataValue.object(event.userData).description)"
        storage.withLock { $0.append(line) }
        return Receipt(plugin: "vendor-log", eventID: event.id, form: line)
    }
}
