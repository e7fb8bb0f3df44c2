/// An invalid configuration: names the field and says what is wrong with it.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The dotted path of the field, for example `batch.flushInterval`.
    public var field: String
    /// What is wrong.
    public var reason: String
    /// The file, when the configuration came from one.
    public var file: String?

    /// Creates an error.
    public init(field: String, reason: String, file: String? = nil) {
        self.field = field
        self.reason = reason
        self.file = file
    }

    /// `Invalid configuration (file) at batch.flushInterval: must not be negative (got -5)`.
    public var description: String {
        "Invalid configuration\(file.map { " (\($0))" } ?? "") at \(field): \(reason)"
    }
}
