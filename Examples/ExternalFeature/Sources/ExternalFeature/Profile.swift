import Tracking

/// The profile feature's events: its own names and actions, nothing shared edited.
enum Profile: EventType {
    enum Name: String, Sendable {
        case avatar
        case settings
    }

    enum Action: String, Sendable {
        case opened
        case changed
    }

    /// Only settings can be opened; both can be changed.
    static func isValid(name: Name, action: Action) -> Bool {
        !(name == .avatar && action == .opened)
    }
}
