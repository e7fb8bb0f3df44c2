extension SnowplowSchemas {
    /// The JSON Schema of ``userData`` (`com.swift-tracking/user_data/jsonschema/1-0-0`), to
    /// register in an Iglu registry (save it as `schemas/com.swift-tracking/user_data/jsonschema/1-0-0`).
    static let userDataDefinition = #"""
    {
        "$schema": "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#",
        "description": "The data of a swift-tracking identify call (the user's traits) or screen call (the screen's properties), with the event's data-quality flags",
        "self": {
            "vendor": "com.swift-tracking",
            "name": "user_data",
            "format": "jsonschema",
            "version": "1-0-0"
        },
        "type": "object",
        "properties": {
            "userData": {
                "type": "object",
                "description": "The traits of an identify call or the properties of a screen call, as the app sent them"
            },
            "flags": {
                "type": "array",
                "description": "What the library's data-quality stages noticed about the event",
                "items": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string", "description": "A stable, machine-readable code, for example empty_name"},
                        "detail": {"type": "string", "description": "What exactly: the field, the earlier event id"}
                    },
                    "required": ["code"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["userData"],
        "additionalProperties": false
    }
    """#
}
