import Foundation
import Testing
import TestSupport
import Tracking
@testable import DataQuality

/// Hydration follows the locale and time zone of a ``CurrentDeviceInfo``: the next event after
/// a change notification carries the new ones, in its session, without a new session.
@Suite("Hydration follows region changes")
struct HydrationRegionChangeTests {
    /// A region a test changes at will.
    final class Region: Sendable {
        private let region = LockedValue(DeviceRegion(locale: "en_US", language: "en", timeZone: "Europe/Berlin"))
        func set(_ value: DeviceRegion) { region.withLock { $0 = value } }
        func read() -> DeviceRegion { region.withLock { $0 } }
    }

    private func language(_ event: TrackedEvent) -> UserDataValue? {
        guard case .array(let entities)? = event.context[ContextKey.snowplowEntities] else { return nil }
        for case .object(let entity) in entities where entity["schema"] == .string(SnowplowEntity.mobileContextSchema) {
            if case .object(let data)? = entity["data"] { return data["language"] }
        }
        return nil
    }

    @Test("after a time-zone and a locale notification, the next event carries the new time zone, locale and language")
    func nextEventCarriesTheChange() throws {
        let center = NotificationCenter()
        let region = Region()
        let current = CurrentDeviceInfo(initial: HydrationFixtures.phone, center: center, readRegion: { region.read() })
        let store = InMemoryIdentityStore()
        let sessions = SessionTracker(store: store)
        let hydrator = ContextHydrator(
            application: HydrationFixtures.shop, currentDevice: current, identity: Identity(store: store), sessions: sessions)
        let before = try #require(hydrator.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        #expect(before.context["locale"] == "en-US" && before.context["timezone"] == "Europe/Berlin")
        #expect(language(before) == "en")
        region.set(DeviceRegion(locale: "ja_JP", language: "ja", timeZone: "Asia/Tokyo"))
        let unchanged = try #require(hydrator.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        #expect(unchanged.context["timezone"] == "Europe/Berlin", "nothing changes before the system says so")
        center.post(name: .NSSystemTimeZoneDidChange, object: nil)
        let after = try #require(hydrator.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        #expect(after.context["locale"] == "ja-JP" && after.context["timezone"] == "Asia/Tokyo")
        #expect(language(after) == "ja")
        #expect(after.context["device"] == ["manufacturer": "Apple Inc.", "model": "iPhone15,2"])
        guard case .object(let first)? = before.context["session"], case .object(let third)? = after.context["session"] else {
            Issue.record("no session")
            return
        }
        #expect(first["sessionId"] == third["sessionId"], "the same session goes on")
        #expect(first["eventIndex"] == 1 && third["eventIndex"] == 3, "the third event of that session")
        current.stop()
    }
}
