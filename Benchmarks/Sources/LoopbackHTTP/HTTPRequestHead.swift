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
    static func parse(_ bytes: ArraySlice<UInt8>, bodyStart: Int) -> HTTPRequestHead? {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers[line[..<colon].lowercased()] = String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        return HTTPRequestHead(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
                               contentLength: max(0, length), bodyStart: bodyStart)
    }
}
