import Foundation
import Tracking

/// The first event of a run of identical contents, as the duplicate memory keeps it in its ring:
/// a value, so remembering one allocates nothing.
struct RememberedContent {
    let category: String
    let name: String
    let action: String
    let userData: UserData
    let id: UUID
    let timestamp: Date
    /// The id as text, written the first time a duplicate names it.
    var idText: String?

    /// Remembers `event`'s content, id and time.
    init(_ event: TrackedEvent) {
        category = event.category
        name = event.name
        action = event.action
        userData = event.userData
        id = event.id
        timestamp = event.timestamp
    }

    /// Whether `event` has the same content: category, name, action and userData.
    func hasContent(of event: TrackedEvent) -> Bool {
        category == event.category && name == event.name && action == event.action && userData == event.userData
    }
}
