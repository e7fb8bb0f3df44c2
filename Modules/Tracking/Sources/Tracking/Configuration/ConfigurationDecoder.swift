import Foundation

/// Decodes JSON configuration files into ``ConfigurationError``s a person can act on: a syntax
/// error names its line and column, any other problem names the dotted path of the field.
public enum ConfigurationDecoder {
    /// Decodes `type` from JSON.
    /// - Throws: ``ConfigurationError`` naming the line and column of a syntax error, or the
    ///   field (`batch.flushInterval`, `categories.Cart.fields[2]`) and what is wrong with it.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            // Foundation gives no position for a syntax error: find it, as a line and column.
            if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty,
               let syntax = JSONSyntaxError.find(in: [UInt8](data)) {
                throw ConfigurationError(field: "(root)", reason: "not valid JSON at \(syntax)")
            }
            let (path, reason) = CodingPath.describe(error)
            throw ConfigurationError(field: path, reason: reason)
        }
    }

    /// Reads and decodes a JSON file.
    /// - Throws: ``ConfigurationError`` naming the file, and the field or position at fault.
    public static func load<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigurationError(field: "(file)", reason: "cannot read: \(error.localizedDescription)", file: url.path)
        }
        do {
            return try decode(type, from: data)
        } catch var error as ConfigurationError {
            error.file = url.path
            throw error
        }
    }
}
