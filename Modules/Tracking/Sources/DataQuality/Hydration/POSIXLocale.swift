/// The locale and language of the process as the POSIX environment names them, read without
/// ICU: on Linux `Locale.current` maps ICU's data and costs about 3 MB resident.
///
/// The locale is the first non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG` (the variables
/// that decide the language of messages), without its codeset (`.UTF-8`) or modifier
/// (`@euro`). GNU's `LANGUAGE` list is not read.
enum POSIXLocale {
    /// The locale reported when none is set or it is `C` or `POSIX`: `en_US_POSIX`, the name
    /// ICU and Foundation give the C locale. Its ``language(of:)`` is nil, since a process
    /// without a locale says nothing about its user's language.
    static let fallback = "en_US_POSIX"

    /// The locale identifier in `environment`, for example `en_US` or `de_DE`, or ``fallback``.
    static func identifier(environment: [String: String]) -> String {
        let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let name = value.prefix { $0 != "." && $0 != "@" }
        guard !name.isEmpty, name != "C", name != "POSIX" else { return fallback }
        return String(name)
    }

    /// The lowercased language of `identifier`, the part before `_` or `-` (`de` for `de_DE`);
    /// nil for ``fallback`` or when that part is not 2 to 8 ASCII letters.
    static func language(of identifier: String) -> String? {
        guard identifier != fallback else { return nil }
        let code = identifier.prefix { $0 != "_" && $0 != "-" }
        guard (2...8).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return code.lowercased()
    }

    /// The identifier for this process's own environment.
    static func current() -> String {
        identifier(environment: POSIXEnvironment.values(of: ["LC_ALL", "LC_MESSAGES", "LANG"]))
    }
}
