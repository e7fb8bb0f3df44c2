@testable import Dispatcher
import DataQuality
import Foundation
import Tracking

/// Events and rows for delivery tests.
enum DeliveryFixtures {
    /// A fixed moment: 2026-11-21T10:00:00.123Z.
    static let createdAt = Date(timeIntervalSince1970: 1_795_255_200.123)

    /// A client_session 1-0-2 entity.
    static let clientSession: UserDataValue = .object([
        "schema": .string(SnowplowEntitySchema.clientSession),
        "data": .object([
            "userId": "0b4f5e8a-3c2d-4e1f-9a8b-7c6d5e4f3a2b",
            "sessionId": "1c5a6f9b-4d3e-4f20-8b9c-8d7e6f5a4b3c",
            "sessionIndex": 3,
            "eventIndex": 7,
            "storageMechanism": "SQLITE",
            "firstEventId": "2d6b7a0c-5e4f-4a31-9cad-9e8f7a6b5c4d",
            "firstEventTimestamp": "2026-11-21T09:59:00.000Z",
        ]),
    ])

    /// A mobile_context 1-0-3 entity.
    static let mobileContext: UserDataValue = .object([
        "schema": .string(SnowplowEntitySchema.mobileContext),
        "data": .object([
            "osType": "ios", "osVersion": "18.1", "deviceManufacturer": "Apple", "deviceModel": "iPhone16,2",
            "networkType": "wifi",
        ]),
    ])

    /// A tracked event with userData, a context carrying identifiers and Snowplow entities, and a flag.
    static func trackedEvent(
        id: UUID = EventID.make(), userData: UserData = ["cardType": "Mastercard", "quantity": 3, "total": 19.99, "gift": true],
        context: UserData? = nil
    ) -> TrackedEvent {
        TrackedEvent(
            id: id, timestamp: createdAt, category: "Cart", name: "checkout", action: "pay",
            userData: userData,
            context: context ?? [
                "installationId": "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f",
                "userId": "user-42",
                "appVersion": "1.2.3",
                "snowplowEntities": .array([clientSession, mobileContext]),
            ],
            flags: [EventFlag(code: "unknown_field", detail: "coupon")])
    }

    /// A stored row for `event`.
    /// The event's shared context is merged into its own, as a store read gives it to a destination.
    static func stored(_ event: TrackedEvent, sequence: Int64 = 1, attempts: Int = 0) -> StoredEvent {
        var flattened = event
        flattened.context = event.context
        return StoredEvent(sequence: sequence, event: EncodedEvent(flattened), status: .inFlight, attempts: attempts, createdAt: createdAt)
    }

    /// `count` small encoded events with distinct ids.
    static func encodedEvents(_ count: Int, padding: Int = 0) -> [EncodedEvent] {
        (0..<count).map { index in
            var userData: UserData = ["index": .int(index), "sku": .string("SKU-\(index)"), "price": 9.5, "member": true]
            if padding > 0 { userData["padding"] = .string(String(repeating: "x", count: padding)) }
            return EncodedEvent(TrackedEvent(
                timestamp: createdAt, category: "Cart", name: "add", action: "select", userData: userData,
                context: ["installationId": "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"]))
        }
    }

    /// Parses JSON into a dictionary.
    static func object(_ data: Data) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: data)
        guard let object = value as? [String: Any] else { throw FixtureError(description: "not an object: \(value)") }
        return object
    }

    /// An error from a fixture helper.
    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }
}
