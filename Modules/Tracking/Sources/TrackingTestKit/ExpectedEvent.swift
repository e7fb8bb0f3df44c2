import Tracking

/// One expected event, compared by category, name, action and (when given) userData.
public struct ExpectedEvent: Sendable, Equatable, CustomStringConvertible {
    /// The expected category.
    public var category: String
    /// The expected name.
    public var name: String
    /// The expected action.
    public var action: String
    /// The expected data, or `nil` to ignore it.
    public var userData: UserData?

    /// Creates an expectation from a feature's own names.
    public init<T: EventType>(_ feature: T.Type, _ name: T.Name, _ action: T.Action, _ userData: UserData? = nil) {
        self.init(category: T.category, name: name.rawValue, action: action.rawValue, userData: userData)
    }

    /// Creates an expectation from strings.
    public init(category: String, name: String, action: String, userData: UserData? = nil) {
        self.category = category
        self.name = name
        self.action = action
        self.userData = userData
    }

    /// Whether `event` is what this expects.
    public func matches(_ event: TrackedEvent) -> Bool {
        event.category == category && event.name == name && event.action == action
            && (userData == nil || userData == event.userData)
    }

    /// `Category/name/action {userData}`, the same shape as `TrackedEvent`'s description.
    public var description: String {
        var line = "\(category)/\(name)/\(action)"
        if let userData, !userData.isEmpty { line += " " + JSONText.encode(.object(userData)) }
        return line
    }
}
