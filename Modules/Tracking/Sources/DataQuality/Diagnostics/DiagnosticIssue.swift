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
    public var message: String {
        get { text.rendered }
        set { text = .text(newValue) }
    }
    /// The event concerned, when there is one.
    public var eventID: UUID?
    /// When it happened.
    public var timestamp: Date
    /// The message, written out when read.
    private var text: DiagnosticMessage

    /// Creates an issue.
    public init(kind: Kind, code: String, message: String, eventID: UUID? = nil, timestamp: Date = Date()) {
        self.init(kind: kind, code: code, text: .text(message), eventID: eventID, timestamp: timestamp)
    }

    /// Creates an issue whose message is written out only when read.
    init(kind: Kind, code: String, text: DiagnosticMessage, eventID: UUID?, timestamp: Date) {
        self.kind = kind
        self.code = code
        self.text = text
        self.eventID = eventID
        self.timestamp = timestamp
    }

    private enum CodingKeys: String, CodingKey { case kind, code, message, eventID, timestamp }

    /// Decodes an issue.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            code: try container.decode(String.self, forKey: .code),
            message: try container.decode(String.self, forKey: .message),
            eventID: try container.decodeIfPresent(UUID.self, forKey: .eventID),
            timestamp: try container.decode(Date.self, forKey: .timestamp))
    }

    /// Encodes the issue, its message written out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(eventID, forKey: .eventID)
        try container.encode(timestamp, forKey: .timestamp)
    }

    /// Equal when every field is, the messages compared as text.
    public static func == (lhs: DiagnosticIssue, rhs: DiagnosticIssue) -> Bool {
        lhs.kind == rhs.kind && lhs.code == rhs.code && lhs.eventID == rhs.eventID && lhs.timestamp == rhs.timestamp
            && lhs.message == rhs.message
    }

    /// `kind/code: message`.
    public var description: String { "\(kind.rawValue)/\(code): \(message)" }
}

extension DiagnosticIssue.Kind {
    /// The kind's position in ``allCases``: its slot in the diagnostics' totals.
    var slot: Int {
        switch self {
        case .storage: 0
        case .delivery: 1
        case .validation: 2
        case .configuration: 3
        case .privacy: 4
        }
    }
}
