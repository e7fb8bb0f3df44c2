import Foundation
import Tracking

/// Builds the Snowplow entities hydration attaches under ``Tracking/ContextKey/snowplowEntities``.
///
/// Field names, types and required fields follow the Iglu schemas exactly
/// (`client_session` 1-0-2, `mobile_context` 1-0-3).
enum SnowplowEntity {
    /// The schema URI of the session entity.
    static let clientSessionSchema = SnowplowEntitySchema.clientSession
    /// The schema URI of the device entity.
    static let mobileContextSchema = SnowplowEntitySchema.mobileContext

    /// A `client_session` 1-0-2 entity.
    /// - Parameters:
    ///   - session: the event's session.
    ///   - installationID: the schema's `userId`: the device-level user id (a UUID).
    ///   - storageMechanism: where the session is kept: one of `SQLITE`, `COOKIE_1`, `COOKIE_3`,
    ///     `LOCAL_STORAGE`, `FLASH_LSO`.
    public static func clientSession(_ session: SessionSnapshot, installationID: UUID, storageMechanism: String = "SQLITE") -> UserDataValue {
        var entity = sharedClientSession(session, installationID: installationID, storageMechanism: storageMechanism)
        if case .object(var members) = entity, case .object(var data)? = members["data"] {
            data["eventIndex"] = .int(min(session.eventIndex, Int(Int32.max)))
            members["data"] = .object(data)
            entity = .object(members)
        }
        return entity
    }

    /// The `client_session` entity every event of `session` shares: without `eventIndex`, which
    /// is optional in the schema and travels in the context's `session.eventIndex` instead (a
    /// Snowplow destination puts it back when it encodes the entity).
    static func sharedClientSession(_ session: SessionSnapshot, installationID: UUID, storageMechanism: String = "SQLITE") -> UserDataValue {
        let data: [String: UserDataValue] = [
            "userId": .string(EventID.text(installationID)),
            "sessionId": .string(EventID.text(session.sessionID)),
            "sessionIndex": .int(min(session.sessionIndex, Int(Int32.max))),
            "storageMechanism": .string(storageMechanism),
            "firstEventId": .string(EventID.text(session.firstEventID)),
            "firstEventTimestamp": .string(JSONText.iso8601(session.firstEventTimestamp)),
            "previousSessionId": session.previousSessionID.map { .string(EventID.text($0)) } ?? .null,
        ]
        return ["schema": .string(clientSessionSchema), "data": .object(data)]
    }

    /// A `mobile_context` 1-0-3 entity.
    public static func mobileContext(_ device: DeviceInfo) -> UserDataValue {
        var data: [String: UserDataValue] = [
            "osType": .string(device.osType),
            "osVersion": .string(device.osVersion),
            "deviceManufacturer": .string(device.manufacturer),
            "deviceModel": .string(device.model),
        ]
        if let language = device.language, !language.isEmpty { data["language"] = .string(String(language.prefix(8))) }
        return ["schema": .string(mobileContextSchema), "data": .object(data)]
    }
}
