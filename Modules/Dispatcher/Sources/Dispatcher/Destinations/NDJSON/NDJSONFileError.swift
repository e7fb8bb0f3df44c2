import Foundation

/// A file-system failure of the ``NDJSONFileDestination``: the operation, the path and `errno`.
struct NDJSONFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done: `open`, `write`, `fsync`, `create folder`.
    var operation: String
    /// The file or folder.
    var path: String
    /// The `errno` value, or 0.
    var code: Int32
    /// Extra detail, when there is no `errno`.
    var detail: String?

    /// Creates an error.
    init(operation: String, path: String, code: Int32, detail: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.detail = detail
    }

    /// `<operation> <path>: <strerror>`.
    var description: String {
        let cause = detail ?? String(cString: strerror(code))
        return "\(operation) \(path): \(cause)"
    }
}
