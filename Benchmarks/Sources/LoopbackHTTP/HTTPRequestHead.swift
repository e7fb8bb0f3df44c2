/// The head of one HTTP/1.1 request: its request line and header fields.
struct HTTPRequestHead {
    var method: String
    var path: String
    var headers: [String: String]
    var contentLength: Int
    /// Where the body starts in the connection's buffer.
    var bodyStart: Int

    /// Parses a request line and header fields (names lowercased, values trimmed); nil when the
    /// request line is not one.
    ///
    /// It works on the bytes and makes a string only of each part it keeps: the collector runs
    /// beside the library it measures, on the same cores, so its own cost stays small.
    static func parse(_ bytes: ArraySlice<UInt8>, bodyStart: Int) -> HTTPRequestHead? {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).makeIterator()
        guard let first = lines.next() else { return nil }
        let requestLine = trimmed(first).split(separator: 32)
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: 58) else { continue }
            let name = String(decoding: line[..<colon].map(lowercased), as: UTF8.self)
            headers[name] = String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        return HTTPRequestHead(method: String(decoding: requestLine[0], as: UTF8.self), path: String(decoding: requestLine[1], as: UTF8.self),
                               headers: headers, contentLength: max(0, length), bodyStart: bodyStart)
    }

    /// `bytes` without the spaces, tabs and carriage returns at either end.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isBlank: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 13 }
        guard let start = bytes.firstIndex(where: { !isBlank($0) }), let end = bytes.lastIndex(where: { !isBlank($0) }) else { return [] }
        return bytes[start...end]
    }

    /// An ASCII letter in lower case; any other byte as it is.
    private static func lowercased(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
}
