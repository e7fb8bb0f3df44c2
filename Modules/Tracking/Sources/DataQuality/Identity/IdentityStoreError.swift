/// A failure to read or write an identity store, with the file and the system's reason.
public struct IdentityStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done: `write`, `rename`, `create folder`.
    public var operation: String
    /// The file concerned.
    public var path: String
    /// The system error number, when there is one.
    public var errorNumber: Int32?
    /// The reason, readable.
    public var reason: String

    /// Creates an error.
    public init(operation: String, path: String, errorNumber: Int32? = nil, reason: String) {
        self.operation = operation
        self.path = path
        self.errorNumber = errorNumber
        self.reason = reason
    }

    /// `Identity store: cannot write /path: Permission denied (errno 13)`.
    public var description: String {
        "Identity store: cannot \(operation) \(path): \(reason)" + (errorNumber.map { " (errno \($0))" } ?? "")
    }
}
