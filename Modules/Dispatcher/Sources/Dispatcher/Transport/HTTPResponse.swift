import Foundation

/// An HTTP response as a transport returns it.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, for example `200`.
    public var statusCode: Int
    /// Header fields, by name.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Up to `limit` characters of the body as text, for error messages.
    public func bodySnippet(limit: Int = 200) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
        return body.count > limit ? text + "…" : text
    }
}
