import Foundation

/// An `Authorization` header value that never shows itself: its description, debug description
/// and mirror are all `<redacted>`, so printing or dumping a destination cannot leak it.
struct HTTPBasicAuthorization: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable {
    /// The full header value, `Basic base64(user:password)`.
    let headerValue: String

    /// Basic authorization for `user` and `password`.
    init(user: String, password: String) {
        headerValue = "Basic " + Data((user + ":" + password).utf8).base64EncodedString()
    }

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
