import Foundation

/// An HTTP request as a destination builds it: a plain value, independent of `URLSession`.
public struct HTTPRequest: Sendable, Equatable {
    /// The method, for example `"POST"`.
    public var method: String
    /// The full URL.
    public var url: URL
    /// Header fields, by name.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a request.
    public init(method: String = "POST", url: URL, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension HTTPRequest: CustomStringConvertible {
    /// `METHOD url (n bytes)`: header values are left out, since they may carry credentials.
    public var description: String { "\(method) \(EndpointURL.redacted(url)) (\(body.count) bytes)" }
}
