#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The time zone of the process as the POSIX environment names it, read without ICU: on
/// Linux `TimeZone.current` maps ICU's data and costs about 2.4 MB resident.
enum POSIXTimeZone {
    /// The zone reported when nothing names one.
    static let fallback = "UTC"

    /// The time zone identifier, for example `Europe/Berlin`: `TZ` in `environment` when it
    /// names a zone (a leading `:` is dropped; a path keeps what follows `zoneinfo/`), else
    /// what `localtimeTarget` (the `/etc/localtime` link) names after `zoneinfo/`, else the
    /// first line of `timezoneFile` (`/etc/timezone`), else ``fallback``. A POSIX rule such as
    /// `CET-1CEST,M3.5.0,M10.5.0/3` or a path outside `zoneinfo` does not name a zone.
    static func identifier(environment: [String: String], localtimeTarget: String?, timezoneFile: String?) -> String {
        if let tz = environment["TZ"].map({ $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }),
           let zone = zone(inPath: tz) ?? (tz.hasPrefix("/") ? nil : zoneName(tz)) {
            return zone
        }
        if let zone = localtimeTarget.flatMap(zone(inPath:)) { return zone }
        if let line = timezoneFile?.split(whereSeparator: \.isNewline).first,
           let zone = zoneName(line.trimmingASCIISpaces()) {
            return zone
        }
        return fallback
    }

    /// The zone a path names: what follows its `zoneinfo` directory, without tzdata's `posix/`
    /// or `right/` (`/usr/share/zoneinfo/posix/Europe/Berlin` names `Europe/Berlin`); nil for
    /// a path with no `zoneinfo` directory.
    static func zone(inPath path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let directory = parts.firstIndex(of: "zoneinfo") else { return nil }
        var name = parts[(directory + 1)...]
        if name.first == "posix" || name.first == "right" { name = name.dropFirst() }
        return zoneName(name.joined(separator: "/"))
    }

    /// `text` when it has the form of a zone name: `/`-separated parts of ASCII letters, digits,
    /// `_`, `+` and `-`, each starting with a letter (`America/Argentina/Buenos_Aires`, `Etc/GMT+5`).
    static func zoneName(_ text: some StringProtocol) -> String? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let valid = parts.allSatisfy { part in
            guard let first = part.first, first.isASCII, first.isLetter else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_+-".contains($0)) }
        }
        return valid ? String(text) : nil
    }

    /// The identifier for this process: its `TZ`, `/etc/localtime` and `/etc/timezone`.
    static func current() -> String {
        identifier(
            environment: POSIXEnvironment.values(of: ["TZ"]),
            localtimeTarget: POSIXEnvironment.symbolicLinkTarget("/etc/localtime"),
            timezoneFile: POSIXEnvironment.firstBytes(ofFile: "/etc/timezone")
        )
    }
}

private extension StringProtocol {
    /// The text without leading and trailing ASCII spaces and tabs.
    func trimmingASCIISpaces() -> SubSequence {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = self[start...].lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
