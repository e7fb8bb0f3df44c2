import Foundation

/// An HTTP response as a transport returns it.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, for example `200`.
    public var statusCode: Int
    /// Header fields, by name.
    public var headers: [String: String]
    /// The body, or its first bytes when ``bodyTruncated`` (transports keep at most a small
    /// bound, 4 KiB by default, and abort the rest).
    public var body: Data
    /// Whether the collector sent more than ``body`` holds: the transport stopped reading and
    /// dropped the connection, so the response never completed.
    public var bodyTruncated: Bool

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data(), bodyTruncated: Bool = false) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.bodyTruncated = bodyTruncated
    }

    /// The value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Up to `limit` characters of the body as text, for error messages: control characters
    /// are escaped (`\u{1B}`, `\n`…), so a collector's text cannot drive a terminal, and `…`
    /// marks a cut.
    public func bodySnippet(limit: Int = 200) -> String {
        CollectorText.sanitized(bytes: body, limit: limit, truncated: bodyTruncated)
    }
}
