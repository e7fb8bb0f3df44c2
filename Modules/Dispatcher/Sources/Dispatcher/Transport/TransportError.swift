import Foundation

/// Why a request got no HTTP response.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request did not complete within the transport's timeout.
    case timedOut(seconds: Double)
    /// The connection failed or was dropped; the text is the underlying error's description.
    case network(String)
    /// The request was cancelled (for example on shutdown).
    case cancelled
    /// Something answered that was not an HTTP response.
    case invalidResponse(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .timedOut(let seconds): "timed out after \(seconds) s"
        case .network(let detail): "network error: \(detail)"
        case .cancelled: "cancelled"
        case .invalidResponse(let detail): "invalid response: \(detail)"
        }
    }
}
