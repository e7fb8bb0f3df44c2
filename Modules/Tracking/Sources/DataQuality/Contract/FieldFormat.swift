import Foundation

/// A format a string field must have.
///
/// In JSON a named format is written `"format": "email"`, a regular expression
/// `"pattern": "^[A-Z]{3}$"` (matched against the whole value).
public enum FieldFormat: Sendable, Hashable {
    /// A UUID, any case: `0195f1b2-…`.
    case uuid
    /// An ISO-8601 date-time, with or without fractional seconds: `2026-11-21T10:00:00.000Z`.
    case iso8601
    /// An e-mail address: something, `@`, a domain with a dot.
    case email
    /// An absolute URL with a scheme and a host.
    case url
    /// A regular expression the whole value must match (ICU syntax, as `NSRegularExpression`).
    case regex(String)

    /// The names usable as `"format"` in JSON.
    public static let namedFormats = ["email", "iso8601", "url", "uuid"]

    /// The named format for `name`, or `nil` when there is none.
    public init?(name: String) {
        switch name {
        case "uuid": self = .uuid
        case "iso8601", "date-time": self = .iso8601
        case "email": self = .email
        case "url", "uri": self = .url
        default: return nil
        }
    }

    /// The name used in JSON and messages: `uuid`, `email`, or `pattern /…/`.
    public var name: String {
        switch self {
        case .uuid: "uuid"
        case .iso8601: "iso8601"
        case .email: "email"
        case .url: "url"
        case .regex(let pattern): "pattern /\(pattern)/"
        }
    }

    /// Parses an ISO-8601 date-time with or without fractional seconds.
    static func parseISO8601(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// Whether `text` has this format. A regular expression that does not compile matches nothing.
    func matches(_ text: String, compiled: CompiledPattern?) -> Bool {
        switch self {
        case .uuid:
            return UUID(uuidString: text) != nil
        case .iso8601:
            return Self.parseISO8601(text) != nil
        case .email:
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
            let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
            return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
        case .url:
            guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return false }
            return url.host?.isEmpty == false
        case .regex(let pattern):
            return (compiled ?? CompiledPattern(pattern))?.matchesWhole(text) ?? false
        }
    }
}
