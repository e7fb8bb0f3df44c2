import Foundation
import Testing
@testable import Tracking
import TrackingTestKit

/// Typed userData written as literals, and read back by comparing with literals.
struct UserDataTests {
    @Test func literalsOfEveryKindBuildTypedValues() {
        let data: UserData = [
            "cardType": "Mastercard", "quantity": 3, "price": 9.99, "gift": true,
            "items": ["a", "b"], "address": ["city": "Berlin"], "note": nil,
        ]
        #expect(data["cardType"] == .string("Mastercard"))
        #expect(data["quantity"] == .int(3))
        #expect(data["price"] == .double(9.99))
        #expect(data["gift"] == .bool(true))
        #expect(data["items"] == .array([.string("a"), .string("b")]))
        #expect(data["address"] == .object(["city": .string("Berlin")]))
        #expect(data["note"] == .null)
    }

    @Test func sentDataComparesWithLiterals() throws {
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder]).send(name: .checkout, action: .pay, userData: ["cardType": "Mastercard", "quantity": 3])
        let event = try #require(recorder.events.first)
        #expect(event.userData["cardType"] == "Mastercard")
        #expect(event.userData["quantity"] == 3)
        #expect(event.userData["quantity"]?.intValue == 3)
        #expect(event.userData["cardType"]?.stringValue == "Mastercard")
        #expect(event.userData["missing"] == nil)
    }

    @Test func accessorsReturnNilForOtherKinds() {
        let value: UserDataValue = "3"
        #expect(value.intValue == nil)
        #expect(value.boolValue == nil)
        #expect(UserDataValue.int(3).doubleValue == 3.0)
        #expect(UserDataValue.double(1.5).doubleValue == 1.5)
        #expect(UserDataValue.bool(true).typeName == "boolean")
    }

    @Test func sendingWithoutDataSendsEmptyData() throws {
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder]).send(name: .add, action: .select)
        #expect(try #require(recorder.events.first).userData.isEmpty)
    }

    @Test func nonFiniteNumbersAreFlaggedAndWrittenAsStrings() throws {
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder]).send(name: .add, action: .select, userData: ["ratio": .double(.nan), "list": [.double(.infinity)]])
        let event = try #require(recorder.events.first)
        #expect(event.hasFlag("non_finite_number"))
        #expect(JSONText.encode(.object(event.userData)) == #"{"list":["Infinity"],"ratio":"NaN"}"#)
    }
}
