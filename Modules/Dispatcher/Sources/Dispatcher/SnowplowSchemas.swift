/// The Iglu URIs of the Snowplow tracker-protocol schemas the destination writes.
public enum SnowplowSchemas {
    /// The POST body: `{"schema": payloadData, "data": [...]}`.
    public static let payloadData = "iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4"
    /// The `co` wrapper around the entities of an event.
    public static let contexts = "iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-1"
    /// The `ue_pr` wrapper around a self-describing event.
    public static let unstructEvent = "iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0"
    /// The session entity the data-quality stage adds.
    public static let clientSession = "iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-2"
    /// The mobile platform entity the data-quality stage adds.
    public static let mobileContext = "iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-3"
}
