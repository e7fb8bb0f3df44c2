/// Something a stage noticed about an event: a data-quality finding that travels with it.
///
/// Flags are reported, stored and delivered; they never drop the event.
public struct EventFlag: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A stable, machine-readable code, for example `invalid_pair` or `unknown_field`.
    public var code: String
    /// What exactly: the field, the earlier event id, the expected values.
    public var detail: String?

    /// Creates a flag.
    public init(code: String, detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    /// `code` or `code(detail)`.
    public var description: String { detail.map { "\(code)(\($0))" } ?? code }

    /// The name/action pair is not one the feature declared valid.
    public static func invalidPair(name: String, action: String) -> EventFlag {
        EventFlag(code: "invalid_pair", detail: "\(name)/\(action)")
    }

    /// A double in the data is NaN or infinite and was written as a string.
    public static let nonFiniteNumber = EventFlag(code: "non_finite_number")

    /// Arrays or objects in the userData nested deeper than ``UserDataValue/maximumDepth`` were
    /// replaced by ``UserDataValue/truncationPlaceholder``.
    public static let userDataTruncated = EventFlag(code: "nesting_truncated", detail: "userData")

    /// Arrays or objects in the context nested deeper than ``UserDataValue/maximumDepth`` were
    /// replaced by ``UserDataValue/truncationPlaceholder`` (by the Dispatcher's encoder).
    public static let contextTruncated = EventFlag(code: "nesting_truncated", detail: "context")

    /// A screen call (``EventReporter/screen(name:properties:)``) had an empty or blank name;
    /// it is still sent, with the name as given.
    public static let emptyScreenName = EventFlag(code: "empty_name", detail: "screen")

    /// A feature declared a category starting with `$`, which is reserved for the library's own
    /// calls (``EventKind``); the event was sent with the leading `$` removed. The detail is the
    /// category the feature declared.
    public static func reservedCategory(_ category: String) -> EventFlag {
        EventFlag(code: "reserved_category", detail: category)
    }

    /// The code of ``awaitingConsent(category:)``: the Dispatcher holds an event carrying it.
    public static let awaitingConsentCode = "awaiting_consent"

    /// The event's category needs consent that is not known yet: the Dispatcher holds the event
    /// until consent is granted (it is delivered) or denied (it is deleted). The detail is the
    /// category.
    public static func awaitingConsent(category: String) -> EventFlag {
        EventFlag(code: awaitingConsentCode, detail: category)
    }
}
