import Foundation
import TestSupport
import Tracking

/// One `track` message as a Segment collector receives it.
struct SegmentMessage: Sendable, Equatable {
    var messageId: String
    var event: String
    var properties: [String: UserDataValue]

    /// Reads a message from its parsed JSON.
    init(_ value: UserDataValue) throws {
        guard case .object(let members) = value, let id = members["messageId"]?.stringValue,
              let event = members["event"]?.stringValue, case .object(let properties)? = members["properties"],
              members["type"] == "track"
        else { throw SegmentCapture.Malformed(description: "not a track message: \(String(describing: value).prefix(200))") }
        messageId = id
        self.event = event
        self.properties = properties
    }
}

/// A message with nothing decoded but its id (cheap, for large runs).
struct SegmentMessageID: Decodable, Sendable {
    var messageId: String
}

/// One request the loopback collector received: its messages and what it answered.
struct CollectedRequest<Message: Sendable>: Sendable {
    /// The HTTP status answered, or nil when the connection was dropped or stalled.
    var status: Int?
    var messages: [Message]

    /// Whether the collector acknowledged these messages.
    var acknowledged: Bool { status.map { (200..<300).contains($0) } ?? false }
}

/// Reads what the loopback collector received as Segment batches.
enum SegmentCapture {
    /// A body that is not a Segment batch.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// Every request received, fully parsed, in arrival order.
    static func requests(_ server: LoopbackHTTPServer) throws -> [CollectedRequest<SegmentMessage>] {
        try server.requests.map { request in
            let body = try JSONValueParser.parse(request.body)
            guard case .object(let members) = body, case .array(let batch)? = members["batch"], members["sentAt"]?.stringValue != nil else {
                throw Malformed(description: "not a batch body: \(String(decoding: request.body.prefix(200), as: UTF8.self))")
            }
            return CollectedRequest(status: status(of: request), messages: try batch.map(SegmentMessage.init))
        }
    }

    /// Every request received with only the message ids decoded, in arrival order.
    static func ids(_ server: LoopbackHTTPServer) throws -> [CollectedRequest<String>] {
        struct Body: Decodable { var batch: [SegmentMessageID] }
        let decoder = JSONDecoder()
        return try server.requests.map { request in
            CollectedRequest(status: status(of: request), messages: try decoder.decode(Body.self, from: request.body).batch.map(\.messageId))
        }
    }

    private static func status(of request: LoopbackHTTPServer.Request) -> Int? {
        if case .respond(let status, _, _) = request.action { status } else { nil }
    }
}
