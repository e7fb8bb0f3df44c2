import Foundation

extension LoopbackHTTPServer {
    /// What the server does with one request.
    public enum Action: Sendable, Equatable {
        /// Answers with a status, headers and body.
        case respond(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// Closes the connection without answering.
        case drop
        /// Holds the request for this many seconds without answering, then closes.
        case stall(seconds: Double)

        /// `200` with `{"success":true}`.
        public static let ok = Action.respond(status: 200, headers: ["Content-Type": "application/json"],
                                              body: Data(#"{"success":true}"#.utf8))
    }

    /// A request as the server received it.
    public struct Request: Sendable {
        /// The method.
        public var method: String
        /// The request target, for example `/v1/batch`.
        public var path: String
        /// Header fields, names lowercased.
        public var headers: [String: String]
        /// The body, decoded when it came with `Content-Encoding: gzip` (as received when it
        /// does not decode); empty when body recording is off.
        public var body: Data
        /// The body's length in bytes as received (compressed, when it was).
        public var bodyLength: Int
        /// The action taken.
        public var action: Action
        /// When the whole request had arrived, just before its answer was written.
        public var receivedAt: Date
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with `errno`.
        public var description: String
    }
}
