extension ConfigurationDecoder {
    /// Throws a `dataCorrupted` error naming the first key of the object `decoder` reads that is
    /// not a case of `keys`, so a misspelt field fails instead of being ignored.
    ///
    /// Call it at the start of a configuration type's `init(from:)`:
    /// `try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)`.
    public static func rejectUnknownKeys<Key: CodingKey & CaseIterable>(_ keys: Key.Type, in decoder: any Decoder) throws {
        let known = Set(Key.allCases.map(\.stringValue))
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + [key],
                debugDescription: "unknown field (known: \(known.sorted().joined(separator: ", ")))"
            ))
        }
    }
}
