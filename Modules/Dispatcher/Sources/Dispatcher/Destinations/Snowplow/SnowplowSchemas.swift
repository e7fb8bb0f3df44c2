/// The Iglu URIs of the schemas the destination writes: Snowplow's tracker-protocol schemas
/// and one of this library's own.
enum SnowplowSchemas {
    /// The POST body: `{"schema": payloadData, "data": [...]}`.
    static let payloadData = "iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4"
    /// The `co` wrapper around the entities of an event.
    static let contexts = "iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-1"
    /// The `ue_pr` wrapper around a self-describing event.
    static let unstructEvent = "iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0"
    /// The self-describing event of a screen call: `{"name": screen name, "id": event id}`, the
    /// event the Snowplow iOS and Android trackers send for a screen view.
    static let screenView = "iglu:com.snowplowanalytics.mobile/screen_view/jsonschema/1-0-0"

    /// **This library's own schema** (not in Iglu Central): the entity carrying the data of an
    /// identify call (the user's traits) or a screen call (the screen's properties, which the
    /// `screen_view` schema has no place for), `{"userData": {…}, "flags": [{"code","detail"}]}`
    /// (`flags` only when the event has any). A pipeline that validates events must know it:
    /// register ``userDataDefinition`` in your Iglu registry, or events carrying the entity
    /// fail enrichment.
    static let userData = "iglu:com.swift-tracking/user_data/jsonschema/1-0-0"
}
