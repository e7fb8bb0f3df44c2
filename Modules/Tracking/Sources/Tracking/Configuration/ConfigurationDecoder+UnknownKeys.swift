extension Decoder {
    /// Throws a `dataCorrupted` error naming the first key of this object not in `known`.
    public func rejectUnknownKeys(_ known: Set<String>) throws {
        let container = try container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription: "unknown field (known: \(known.sorted().joined(separator: ", ")))"
            ))
        }
    }
}
