import Foundation

/// A problem the Dispatcher met and handled without crashing: reported, never thrown at the sender.
public struct DispatcherDiagnostic: Sendable, CustomStringConvertible {
    /// Where it happened.
    public enum Area: String, Sendable {
        /// The SQLite store or the journal.
        case storage
        /// A delivery attempt.
        case delivery
    }

    /// Where it happened.
    public var area: Area
    /// What happened, credentials never included.
    public var message: String
    /// When.
    public var at: Date

    /// Creates a diagnostic.
    public init(area: Area, message: String, at: Date = Date()) {
        self.area = area
        self.message = message
        self.at = at
    }

    /// `storage: …`.
    public var description: String { "\(area.rawValue): \(message)" }
}
