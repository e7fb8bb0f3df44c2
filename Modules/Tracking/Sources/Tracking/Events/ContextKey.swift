/// The keys the data-quality stages write into an event's `context` and the destinations read:
/// the one definition both sides use.
///
/// The names of the device fields follow Segment's context (`app`, `device`, `os`, `locale`,
/// `timezone`, `library`), so a Segment-compatible destination can pass them through as-is.
public enum ContextKey {
    /// `{"name", "version", "build"?, "namespace"?}`.
    public static let app = "app"
    /// `{"manufacturer", "model"}`.
    public static let device = "device"
    /// `{"name", "version"}`.
    public static let os = "os"
    /// The locale as a BCP 47 language tag, `en-US` (from the device's `en_US`).
    public static let locale = "locale"
    /// The time zone identifier, `Europe/Berlin`.
    public static let timezone = "timezone"
    /// `{"name", "version"}` of this library.
    public static let library = "library"
    /// The installation id (lowercase UUID): Snowplow's `domain_userid`, Segment's `anonymousId`.
    public static let installationID = "installationId"
    /// The logged-in user's id, absent when logged out: Snowplow's `uid`, Segment's `userId`.
    public static let userID = "userId"
    /// This process's id (lowercase UUID).
    public static let instanceID = "instanceId"
    /// `{"id", "index", "eventIndex", "previousId"?, "firstEventId", "firstEventTimestamp"}`.
    public static let session = "session"
    /// The short hash of the active configuration.
    public static let configurationHash = "configHash"
    /// Self-describing Snowplow entities, `[{"schema": "iglu:…", "data": {…}}]`: a Snowplow
    /// destination sends them in `co` (contexts 1-0-1).
    public static let snowplowEntities = "snowplowEntities"
    /// The event category whose consent is still unknown; the event carries the flag
    /// ``EventFlag/awaitingConsent(category:)`` too. The Dispatcher holds such events until
    /// consent is known.
    public static let awaitingConsent = "awaitingConsent"
}
