/// How a ``SnowplowDestination`` encodes a feature's event (``Tracking/EventKind/track``);
/// screen and identify calls have encodings of their own, whatever this says (see
/// ``SnowplowDestination``).
enum SnowplowEventEncoding: Sendable, Equatable {
    /// A structured event (`e=se`): `se_ca` = category, `se_ac` = action, `se_la` = name,
    /// `se_pr` = the userData JSON. Flags are not carried (the format has no place for them).
    case structured
    /// A self-describing event (`e=ue`): `ue_pr` holds an `unstruct_event` 1-0-0 wrapper around
    /// `{"schema": schema, "data": {"category","name","action","userData","flags"}}`; the
    /// pipeline must know `schema` (an `iglu:` URI of your own).
    case selfDescribing(schema: String)
}
