import Foundation

/// One of the library's own problems: a storage fault, a failed delivery, a contract violation.
public struct DiagnosticIssue: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Which part of the library the problem is in.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Persisting or reading events or identifiers.
        case storage
        /// Putting events on the wire.
        case delivery
        /// An event that does not meet the data contract.
        case validation
        /// An invalid or unreadable configuration or contract.
        case configuration
        /// Consent, opt-out, redaction or purge.
        case privacy
    }

    /// Where the problem is.
    public var kind: Kind
    /// A short machine-readable code, for example `missing_field` or `write_failed`.
    public var code: String
    /// What happened, readable.
    public var message: String
    /// The event concerned, when there is one.
    public var eventID: UUID?
    /// When it happened.
    public var timestamp: Date

    /// Creates an issue.
    public init(kind: Kind, code: String, message: String, eventID: UUID? = nil, timestamp: Date = Date()) {
        self.kind = kind
        self.code = code
        self.message = message
        self.eventID = eventID
        self.timestamp = timestamp
    }

    /// `kind/code: message`.
    public var description: String { "\(kind.rawValue)/\(code): \(message)" }
}
