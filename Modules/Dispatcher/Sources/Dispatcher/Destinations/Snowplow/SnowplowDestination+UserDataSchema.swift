extension SnowplowDestination {
    /// The Iglu URI of this library's own entity (not in Iglu Central), which carries the data of
    /// an identify or screen call: `iglu:com.swift-tracking/user_data/jsonschema/1-0-0`. A
    /// pipeline that validates events must know it: register ``userDataDefinition``.
    public static let userDataSchema = SnowplowSchemas.userData

    /// The JSON Schema of ``userDataSchema``, to register in an Iglu registry (save it as
    /// `schemas/com.swift-tracking/user_data/jsonschema/1-0-0`).
    public static let userDataDefinition = SnowplowSchemas.userDataDefinition
}
