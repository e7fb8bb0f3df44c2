import Foundation

/// The locale, language and time zone of the process: the part of ``DeviceInfo`` that changes
/// while the app runs (``CurrentDeviceInfo`` reads it again when the system says so).
public struct DeviceRegion: Sendable, Equatable {
    /// The locale identifier, for example `en_US`.
    public var locale: String
    /// The language code, for example `en`.
    public var language: String?
    /// The time zone identifier, for example `Europe/Berlin`.
    public var timeZone: String

    /// Creates a region.
    public init(locale: String, language: String?, timeZone: String) {
        self.locale = locale
        self.language = language
        self.timeZone = timeZone
    }

    /// The region of this process, read now.
    ///
    /// On Linux it comes from the POSIX environment (`POSIXLocale`, `POSIXTimeZone`), read anew
    /// on each call, not from `Locale.current` and `TimeZone.current`: those go through ICU,
    /// which costs about 5.6 MB resident. A `C` or unset locale is `en_US_POSIX` with no
    /// language. Elsewhere it is Foundation's current locale and system time zone, the cached
    /// system zone being reset first so that a change is seen; the language is the locale
    /// identifier's first part (`zh` for `zh-Hant_TW`) on every platform.
    public static func current() -> DeviceRegion {
        #if os(Linux)
        let locale = POSIXLocale.current()
        return DeviceRegion(locale: locale, language: POSIXLocale.language(of: locale), timeZone: POSIXTimeZone.current())
        #else
        NSTimeZone.resetSystemTimeZone()
        // The language is the identifier's first part, as on Linux: `Locale.language` needs
        // iOS 16 and macOS 13, and the older `languageCode` is deprecated there.
        let locale = Locale.current.identifier
        return DeviceRegion(locale: locale, language: POSIXLocale.language(of: locale), timeZone: TimeZone.current.identifier)
        #endif
    }
}
