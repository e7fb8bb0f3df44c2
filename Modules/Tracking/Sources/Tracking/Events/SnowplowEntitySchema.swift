/// The Iglu schema URIs of the Snowplow entities the data-quality stages attach under
/// ``ContextKey/snowplowEntities``: the one definition the stages and the destinations use.
public enum SnowplowEntitySchema {
    /// The session entity, `client_session` 1-0-2.
    public static let clientSession = "iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-2"
    /// The device entity, `mobile_context` 1-0-3.
    public static let mobileContext = "iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-3"
}
