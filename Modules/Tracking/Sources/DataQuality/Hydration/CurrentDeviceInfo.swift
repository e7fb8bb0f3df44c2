import Foundation
import Tracking

/// The device info, kept current: the locale and time zone are read again whenever the system
/// posts Foundation's `NSLocale.currentLocaleDidChangeNotification` (`NSCurrentLocaleDidChangeNotification`)
/// or `NSNotification.Name.NSSystemTimeZoneDidChange` (`NSSystemTimeZoneDidChangeNotification`).
/// They are observed by Foundation's names, which exist on every platform; on Linux, posting
/// either re-reads the POSIX environment the same way.
///
/// ```swift
/// let device = CurrentDeviceInfo()
/// device.value.timeZone   // "Europe/Berlin", then "America/New_York" after the user travels
/// ```
// Unchecked: `tokens` holds NotificationCenter's observer tokens (`any NSObjectProtocol`), which
// are not `Sendable`; its box's lock guards them.
public final class CurrentDeviceInfo: @unchecked Sendable {
    /// The notifications that make it read the region again.
    public static let changeNotifications: [Notification.Name] = [
        NSLocale.currentLocaleDidChangeNotification, .NSSystemTimeZoneDidChange,
    ]

    /// The region as last read, how often it changed, and who is told.
    private struct Region {
        var info: DeviceInfo
        var changes = 0
        var observers: [@Sendable () -> Void] = []
    }

    private let region: LockedValue<Region>
    private let tokens = LockedValue<[any NSObjectProtocol]>([])
    private let center: NotificationCenter
    private let readRegion: @Sendable () -> DeviceRegion

    /// Starts from `initial` and observes `center` for changes.
    public convenience init(initial: DeviceInfo = .current(), center: NotificationCenter = .default) {
        self.init(initial: initial, center: center, readRegion: { DeviceRegion.current() })
    }

    /// Starts from `initial`; `readRegion` reads the region again after a change notification.
    init(initial: DeviceInfo, center: NotificationCenter, readRegion: @escaping @Sendable () -> DeviceRegion) {
        region = LockedValue(Region(info: initial))
        self.center = center
        self.readRegion = readRegion
        let observed = Self.changeNotifications.map { name in
            center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.refresh() }
        }
        tokens.withLock { $0 = observed }
    }

    /// The device info as of the last change notification.
    public var value: DeviceInfo { region.withLock { $0.info } }

    /// How many times the region changed since the start: a cheap way to tell that ``value`` did.
    public var changeCount: Int { region.withLock { $0.changes } }

    /// ``changeCount`` and ``value`` read together.
    var snapshot: (changeCount: Int, value: DeviceInfo) { region.withLock { ($0.changes, $0.info) } }

    /// Calls `action` after each change, once ``value`` and ``changeCount`` show it, on the
    /// thread that posted the notification.
    public func onChange(_ action: @escaping @Sendable () -> Void) { region.withLock { $0.observers.append(action) } }

    /// Stops observing. Safe to call more than once.
    public func stop() {
        let observed = tokens.withLock { tokens in
            defer { tokens.removeAll() }
            return tokens
        }
        for token in observed { center.removeObserver(token) }
    }

    deinit { stop() }

    /// Reads the region again; when it differs, records it, then tells the observers.
    private func refresh() {
        let read = readRegion()
        let toTell: [@Sendable () -> Void] = region.withLock { region in
            guard region.info.region != read else { return [] }
            region.info.region = read
            region.changes += 1
            return region.observers
        }
        for action in toTell { action() }
    }
}
