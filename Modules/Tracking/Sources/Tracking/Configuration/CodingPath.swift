/// Turns decoding errors into the dotted path of the field they concern.
enum CodingPath {
    /// `batch.flushInterval`, `categories.Cart.fields[2]`: the path a coding path names.
    static func text(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text.isEmpty ? "(root)" : text
    }

    /// The path and a readable reason for a `DecodingError` (or any other error).
    static func describe(_ error: any Error) -> (path: String, reason: String) {
        guard let decodingError = error as? DecodingError else { return ("(root)", String(describing: error)) }
        switch decodingError {
        case .typeMismatch(let type, let context):
            return (text(context.codingPath), "expected \(type)")
        case .valueNotFound(let type, let context):
            return (text(context.codingPath), "expected a value of type \(type), found null")
        case .keyNotFound(let key, let context):
            return (text(context.codingPath + [key]), "is required but missing")
        case .dataCorrupted(let context):
            return (text(context.codingPath), context.debugDescription)
        @unknown default:
            return ("(root)", String(describing: decodingError))
        }
    }
}
