import Foundation
import Testing
@testable import Tracking

/// `UserDataValue` and `TrackedEvent` through `JSONEncoder` and back.
struct CodableTests {
    @Test(arguments: [
        UserDataValue.string("Mastercard"), .string(""), .string("ü \"q\" \\ \n"), .int(0), .int(-42), .int(Int.max), .int(Int.min),
        .double(9.99), .double(-0.5), .double(1e-9), .bool(true), .bool(false), .null,
        .array([]), .array([1, "two", 3.5, false, nil]), .object([:]), .object(["nested": ["list": [1, 2], "flag": true]]),
    ])
    func valueRoundTrips(value: UserDataValue) throws {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(UserDataValue.self, from: data) == value)
    }

    @Test func wholeDoublesKeepTheirNumericValue() throws {
        let decoded = try JSONDecoder().decode(UserDataValue.self, from: JSONEncoder().encode(UserDataValue.double(2.0)))
        #expect(decoded.doubleValue == 2.0)
    }

    @Test func datesEncodeAsISO8601Strings() throws {
        let value = UserDataValue.date(Date(timeIntervalSince1970: 1_700_000_000.25))
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(text == #""2023-11-14T22:13:20.250Z""#)
        #expect(try JSONDecoder().decode(UserDataValue.self, from: Data(text.utf8)) == "2023-11-14T22:13:20.250Z")
    }

    @Test func encoderOutputMatchesJSONWriterForTheSameValue() throws {
        let value: UserDataValue = ["b": [1, 2.5, "x"], "a": true, "c": nil]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == JSONText.encode(value))
    }

    @Test func trackedEventRoundTrips() throws {
        var event = TrackedEvent(
            timestamp: Date(timeIntervalSince1970: 1_700_000_000.5),
            category: "Cart", name: "checkout", action: "pay",
            userData: ["cardType": "Mastercard", "quantity": 3, "items": ["a", "b"], "gift": false],
            context: ["app": "demo"]
        )
        event.flag(.invalidPair(name: "checkout", action: "pay"))
        event.flag(.invalidPair(name: "checkout", action: "pay"))
        #expect(event.flags.count == 1)
        let decoded = try JSONDecoder().decode(TrackedEvent.self, from: JSONEncoder().encode(event))
        #expect(decoded == event)
    }
}
