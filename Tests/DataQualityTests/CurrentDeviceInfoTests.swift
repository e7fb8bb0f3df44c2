@testable import DataQuality
import Foundation
import Testing
import Tracking

/// Locale and time-zone changes are picked up when the system posts its change notifications.
@Suite("Current device info")
struct CurrentDeviceInfoTests {
    /// A region a test changes at will, as the system would.
    final class Region: Sendable {
        private let region = LockedValue(DeviceRegion(locale: "en_US", language: "en", timeZone: "Europe/London"))
        private let reads = LockedValue(0)
        func set(_ value: DeviceRegion) { region.withLock { $0 = value } }
        func read() -> DeviceRegion {
            reads.withLock { $0 += 1 }
            return region.withLock { $0 }
        }
        var readCount: Int { reads.withLock { $0 } }
    }

    private let initial = DeviceInfo(
        osType: "ios", osName: "iOS", osVersion: "17.4.1", manufacturer: "Apple Inc.", model: "iPhone15,2",
        locale: "en_US", language: "en", timeZone: "Europe/London")

    @Test("a locale change notification re-reads the locale; a time-zone one the time zone")
    func changesArePickedUp() {
        let center = NotificationCenter()
        let region = Region()
        let device = CurrentDeviceInfo(initial: initial, center: center, readRegion: { region.read() })
        region.set(DeviceRegion(locale: "de_DE", language: "de", timeZone: "Europe/London"))
        #expect(device.value.locale == "en_US", "nothing re-read before the system says so")
        center.post(name: NSLocale.currentLocaleDidChangeNotification, object: nil)
        #expect(device.value.locale == "de_DE" && device.value.language == "de")
        #expect(device.changeCount == 1)
        region.set(DeviceRegion(locale: "de_DE", language: "de", timeZone: "America/New_York"))
        center.post(name: .NSSystemTimeZoneDidChange, object: nil)
        #expect(device.value.timeZone == "America/New_York")
        #expect(device.value.model == "iPhone15,2", "the rest is kept")
        #expect(device.changeCount == 2)
        device.stop()
    }

    @Test("a notification with nothing changed, or an unrelated one, changes nothing; after stop() none is observed")
    func onlyRealChangesCount() {
        let center = NotificationCenter()
        let region = Region()
        let device = CurrentDeviceInfo(initial: initial, center: center, readRegion: { region.read() })
        center.post(name: NSLocale.currentLocaleDidChangeNotification, object: nil)
        #expect(device.changeCount == 0 && region.readCount == 1)
        center.post(name: Notification.Name("NSSystemClockDidChangeNotification"), object: nil)
        #expect(region.readCount == 1)
        device.stop()
        region.set(DeviceRegion(locale: "fr_FR", language: "fr", timeZone: "Europe/Paris"))
        center.post(name: .NSSystemTimeZoneDidChange, object: nil)
        #expect(device.value.locale == "en_US" && region.readCount == 1)
    }

    @Test("by default the notification re-reads this process's region (the POSIX environment on Linux)")
    func defaultReaderReadsTheProcess() {
        let center = NotificationCenter()
        var stale = initial
        stale.region = DeviceRegion(locale: "xx_XX", language: "xx", timeZone: "Nowhere/Stale")
        let device = CurrentDeviceInfo(initial: stale, center: center)
        center.post(name: .NSSystemTimeZoneDidChange, object: nil)
        #expect(device.value.region == DeviceRegion.current())
        #if os(Linux)
        #expect(device.value.timeZone == POSIXTimeZone.current())
        #expect(device.value.locale == POSIXLocale.current())
        #endif
        device.stop()
    }
}
