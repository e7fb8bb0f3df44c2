/// A change to the privacy state, as an observer of ``PrivacyControls`` is told.
public enum PrivacyChange: Sendable, Equatable {
    /// The user opted out: no later event is stored, and the events already queued are deleted
    /// (the runtime's Dispatcher does it), so nothing leaves the device from now on.
    case optedOut
    /// The user opted back in.
    case optedIn
    /// Consent for `category` became `decision`. On ``ConsentDecision/granted`` the Dispatcher
    /// delivers the held events of that category; on ``ConsentDecision/denied`` it deletes them.
    case consent(category: String, decision: ConsentDecision)
    /// Identifiers and privacy state were purged; the Dispatcher purges its store.
    case purged
}
