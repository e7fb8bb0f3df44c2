import Tracking

extension SnowplowDestination {
    /// The context's Snowplow entities (`shared`, a JSON array) with `eventIndex` written into
    /// the `client_session` entity when it has none (absent or null), from the context's
    /// `session.eventIndex`, clamped to the schema's range (0 to `Int32.max`).
    ///
    /// Hydration keeps the session entity in the context many events share, without the index
    /// that differs per event; each event carries only `{"session":{"eventIndex":N}}`. Returns
    /// `shared` itself when there is nothing to write (no index, or the entity has one).
    static func fillingClientSessionEventIndex(_ shared: ArraySlice<UInt8>, context: DeliveryJSONMembers) -> ArraySlice<UInt8> {
        guard let index = sessionEventIndex(in: context) else { return shared }
        let elements = DeliveryJSONElements.ranges(in: shared)
        // The first entity that needs the index, with its data object, each parsed once.
        var target: (position: Int, entity: DeliveryJSONMembers, data: DeliveryJSONMembers)?
        for (position, range) in elements.enumerated() {
            let entity = DeliveryJSONMembers(Array(shared[range]))
            if let data = dataLackingEventIndex(entity) {
                target = (position, entity, data)
                break
            }
        }
        guard let target else { return shared }
        var writer = JSONWriter(capacity: shared.count + 32)
        writer.raw("[")
        for (position, range) in elements.enumerated() {
            if position > 0 { writer.raw(",") }
            guard position == target.position else {
                writer.raw(bytes: shared[range])
                continue
            }
            let entity = target.entity
            writer.raw("{")
            for (order, member) in entity.members.enumerated() {
                if order > 0 { writer.raw(",") }
                writer.raw("\"")
                writer.raw(bytes: entity.bytes[member.key])
                writer.raw("\":")
                guard entity.key(of: member, is: Keys.data) else {
                    writer.raw(bytes: entity.bytes[member.value])
                    continue
                }
                writer.raw("{")
                let wrote = writer.members(of: target.data, leadingComma: false, skipping: [Keys.eventIndex])
                writer.raw(wrote ? ",\"eventIndex\":" : "\"eventIndex\":")
                writer.int(index)
                writer.raw("}")
            }
            writer.raw("}")
        }
        writer.raw("]")
        return writer.bytes[...]
    }

    /// The context's `session.eventIndex` when it is an integer, clamped to 0…`Int32.max`.
    private static func sessionEventIndex(in context: DeliveryJSONMembers) -> Int? {
        guard let session = context.rawValue(named: Keys.session), session.first == UInt8(ascii: "{"),
              let raw = DeliveryJSONMembers(Array(session)).rawValue(named: Keys.eventIndex),
              let value = Int(String(decoding: raw, as: UTF8.self)) else { return nil }
        return min(max(value, 0), Int(Int32.max))
    }

    /// The data object of `entity` when it is a `client_session` entity whose data has no
    /// `eventIndex` (or a null one); nil otherwise.
    private static func dataLackingEventIndex(_ entity: DeliveryJSONMembers) -> DeliveryJSONMembers? {
        guard entity.string(named: "schema") == SnowplowEntitySchema.clientSession,
              let raw = entity.rawValue(named: Keys.data), raw.first == UInt8(ascii: "{") else { return nil }
        let data = DeliveryJSONMembers(Array(raw))
        guard let index = data.rawValue(named: Keys.eventIndex) else { return data }
        return index.elementsEqual("null".utf8) ? data : nil
    }

    /// Key names compared as UTF-8.
    private enum Keys {
        static let session = Array("session".utf8)
        static let eventIndex = Array("eventIndex".utf8)
        static let data = Array("data".utf8)
    }
}
