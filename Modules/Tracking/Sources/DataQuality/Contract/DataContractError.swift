import Foundation

/// A contract that could not be read: names the file and the path of the offending field.
public struct DataContractError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The dotted path of the field, for example `categories.Cart.fields.quantity.type`.
    public var path: String
    /// What is wrong there.
    public var reason: String
    /// The file, when the contract came from one.
    public var file: String?

    /// Creates an error.
    public init(path: String, reason: String, file: String? = nil) {
        self.path = path
        self.reason = reason
        self.file = file
    }

    /// `Invalid data contract (file) at categories.Cart.fields.quantity.type: unknown type 'int'`.
    public var description: String {
        "Invalid data contract\(file.map { " (\($0))" } ?? "") at \(path): \(reason)"
    }
}
