/// What kind of call an event records: a feature's `track` event, an `identify` call or a
/// `screen` call.
///
/// Representation: identify and screen calls are ordinary ``TrackedEvent``s carrying a
/// reserved category, `"$identify"` or `"$screen"`. A `$` cannot appear in a Swift type name,
/// so no feature's default category (its ``EventType`` type name) collides with them; an
/// ``EventReporter`` also strips the leading `$`s from a category a feature declares by hand
/// (flagging ``EventFlag/reservedCategory(_:)``), so only
/// ``EventReporter/identify(traits:)`` and ``EventReporter/screen(name:properties:)`` produce
/// a non-track kind. The kind is therefore derived from the category alone: no stored field,
/// store or journal format changes, and every plugin, processor and destination that knows
/// nothing about kinds still sees a well-formed event.
public enum EventKind: String, Sendable, CaseIterable {
    /// A feature's event (`EventReporter.send`): any category that is not reserved.
    case track
    /// Who the user is, with traits (`EventReporter.identify`): category `"$identify"`.
    case identify
    /// A screen was shown (`EventReporter.screen`): category `"$screen"`.
    case screen

    /// The first character of every category the library reserves for its own calls.
    public static let reservedPrefix: Character = "$"

    /// The reserved category of this kind's events, or `nil` for ``track`` (which uses the
    /// feature's own category).
    public var category: String? {
        switch self {
        case .track: nil
        case .identify: "$identify"
        case .screen: "$screen"
        }
    }

    /// The kind of an event with `category`: ``identify`` or ``screen`` for their reserved
    /// categories, ``track`` for every other one.
    public init(category: String) {
        // Both reserved categories start with `$`: any other first byte is a track event's.
        guard category.utf8.first == UInt8(ascii: "$") else {
            self = .track
            return
        }
        switch category {
        case EventKind.identify.category: self = .identify
        case EventKind.screen.category: self = .screen
        default: self = .track
        }
    }

    /// Whether `category` is reserved for the library's own calls (starts with `$`).
    public static func isReserved(_ category: String) -> Bool {
        // The first byte rules out almost every category without forming a Character.
        category.utf8.first == UInt8(ascii: "$") && category.first == reservedPrefix
    }
}
