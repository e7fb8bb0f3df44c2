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
        var data: [String: UserDataValue] = [
            "userId": .string(installationID.uuidString.lowercased()),
            "sessionId": .string(session.sessionID.uuidString.lowercased()),
            "sessionIndex": .int(min(session.sessionIndex, Int(Int32.max))),
            "eventIndex": .int(min(session.eventIndex, Int(Int32.max))),
            "storageMechanism": .string(storageMechanism),
            "firstEventId": .string(session.firstEventID.uuidString.lowercased()),
            "firstEventTimestamp": .string(JSONText.iso8601(session.firstEventTimestamp)),
        ]
        data["previousSessionId"] = session.previousSessionID.map { .string($0.uuidString.lowercased()) } ?? .null
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
