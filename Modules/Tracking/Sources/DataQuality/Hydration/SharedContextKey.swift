import Foundation

/// What the shared context hydration hands to every event depends on besides the fixed app,
/// device and library facts: it is rebuilt only when one of these changes (a new session, a log
/// in or out, a new installation id after a purge).
struct SharedContextKey: Equatable {
    /// The installation id, when identifiers are added.
    var installationID: UUID?
    /// The logged-in user's id.
    var userID: String?
    /// The session's id, when a session is added.
    var sessionID: UUID?
}
