import Foundation
import Testing
@testable import Tracking

/// A ``UserDataDigest`` describes the userData it was taken of: an event drops it on any change
/// of its userData, however the change is made, and keeps it through every other change.
@Suite("userData digest")
struct UserDataDigestTests {
    private func digested() -> TrackedEvent {
        var event = TrackedEvent(category: "Cart", name: "add", action: "tap", userData: ["sku": "a1", "quantity": 2])
        event.userDataDigest = UserDataDigest(memberSums: (1, 2), screenedBy: 7)
        return event
    }

    @Test func anyChangeOfTheUserDataDropsTheDigest() {
        var changes: [(inout TrackedEvent) -> Void] = [
            { $0.userData["email"] = "ada@example.com" },
            { $0.userData["sku"] = nil },
            { $0.userData = [:] },
            { $0.userData.merge(["coupon": "X"]) { _, new in new } },
        ]
        changes.append { event in
            if case .string? = event.userData["sku"] { event.userData["sku"] = "b2" }
        }
        for (index, change) in changes.enumerated() {
            var event = digested()
            change(&event)
            #expect(event.userDataDigest == nil, "change \(index)")
        }
    }

    @Test func otherChangesKeepItAndItIsNotPartOfTheEventsValue() {
        var event = digested()
        event.flag(EventFlag(code: "seen"))
        event.eventContext["session"] = ["eventIndex": 1]
        event.name = "remove"
        #expect(event.userDataDigest?.screenedBy == 7)
        var plain = event
        plain.userDataDigest = nil
        #expect(plain == event)
        #expect(plain.hashValue == event.hashValue)
    }
}
