import Foundation

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
public final class CurrentDeviceInfo: @unchecked Sendable {
    /// The notifications that make it read the region again.
    public static let changeNotifications: [Notification.Name] = [
        NSLocale.currentLocaleDidChangeNotification, .NSSystemTimeZoneDidChange,
    ]

    // Safe: `info`, `changes`, `tokens` and `observers` are only touched while holding `lock`.
    private let lock = NSLock()
    private var info: DeviceInfo
    private var changes = 0
    private var tokens: [any NSObjectProtocol] = []
    private var observers: [@Sendable () -> Void] = []
    private let center: NotificationCenter
    private let readRegion: @Sendable () -> DeviceRegion

    /// Starts from `initial` and observes `center` for changes.
    public convenience init(initial: DeviceInfo = .current(), center: NotificationCenter = .default) {
        self.init(initial: initial, center: center, readRegion: { DeviceRegion.current() })
    }

    /// Starts from `initial`; `readRegion` reads the region again after a change notification.
    init(initial: DeviceInfo, center: NotificationCenter, readRegion: @escaping @Sendable () -> DeviceRegion) {
        info = initial
        self.center = center
        self.readRegion = readRegion
        let observed = Self.changeNotifications.map { name in
            center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.refresh() }
        }
        lock.withLock { tokens = observed }
    }

    /// The device info as of the last change notification.
    public var value: DeviceInfo { lock.withLock { info } }

    /// How many times the region changed since the start: a cheap way to tell that ``value`` did.
    public var changeCount: Int { lock.withLock { changes } }

    /// ``changeCount`` and ``value`` read together.
    var snapshot: (changeCount: Int, value: DeviceInfo) { lock.withLock { (changes, info) } }

    /// Calls `action` after each change, once ``value`` and ``changeCount`` show it, on the
    /// thread that posted the notification.
    public func onChange(_ action: @escaping @Sendable () -> Void) { lock.withLock { observers.append(action) } }

    /// Stops observing. Safe to call more than once.
    public func stop() {
        let observed = lock.withLock {
            defer { tokens.removeAll() }
            return tokens
        }
        for token in observed { center.removeObserver(token) }
    }

    deinit { stop() }

    /// Reads the region again; when it differs, records it, then tells the observers.
    private func refresh() {
        let region = readRegion()
        let toTell: [@Sendable () -> Void] = lock.withLock {
            guard info.region != region else { return [] }
            info.region = region
            changes += 1
            return observers
        }
        for action in toTell { action() }
    }
}
