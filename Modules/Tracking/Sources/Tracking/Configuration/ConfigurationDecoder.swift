import Foundation

/// Decodes JSON configuration files into ``ConfigurationError``s a person can act on: text that
/// is not strict JSON (RFC 8259: no trailing commas, comments or duplicate keys) names its line
/// and column, any other problem names the dotted path of the field.
public enum ConfigurationDecoder {
    /// Decodes `type` from JSON.
    /// - Throws: ``ConfigurationError`` naming the line and column of the first deviation from
    ///   RFC 8259 (`not valid JSON at line 2, column 14: trailing comma before '}'`), or the
    ///   field (`batch.flushInterval`, `categories.Cart.fields[2]`) and what is wrong with it.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        // Strict RFC 8259 first: Foundation accepts trailing commas, comments, duplicate keys.
        if let syntax = StrictJSONScanner.firstError(in: [UInt8](data)) {
            throw ConfigurationError(field: "(root)", reason: "not valid JSON at \(syntax)")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            let (path, reason) = CodingPath.describe(error)
            throw ConfigurationError(field: path, reason: reason)
        }
    }

    /// Reads and decodes a JSON file.
    /// - Throws: ``ConfigurationError`` naming the file, and the field or position at fault, or
    ///   why it cannot be read (`cannot read: no such file`).
    public static func load<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigurationError(field: "(file)", reason: "cannot read: \(FileReadFailure.reason(for: error, path: url.path))", file: url.path)
        }
        do {
            return try decode(type, from: data)
        } catch var error as ConfigurationError {
            error.file = url.path
            throw error
        }
    }
}
