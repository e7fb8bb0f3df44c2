import Foundation

/// The head of one HTTP/1.1 request to the inspector: its request line and headers, read with
/// bounds (``maxHeadBytes``, ``maxHeaders``, a deadline) and parsed strictly.
struct InspectorRequest: Equatable {
    /// The method, as sent (`GET`).
    var method: String
    /// The path, without the query.
    var path: String
    /// The query (after `?`), empty when there is none.
    var query: String
    /// Header names lowercased; a repeated header keeps its first value (see ``count(of:)``).
    var headers: [String: String]
    /// How many times each header came, by lowercased name (the router refuses a repeated `Host` or `Origin`).
    var counts: [String: Int]

    /// The largest request head accepted, request line included.
    static let maxHeadBytes = 8 * 1024
    /// The most header lines accepted.
    static let maxHeaders = 100

    /// Why a head was refused, as the status to answer.
    enum Failure: Error, Equatable {
        /// The head is longer than ``maxHeadBytes`` or has more than ``maxHeaders`` lines (431).
        case tooLarge
        /// The head is not HTTP/1.x (400).
        case malformed(String)
        /// The head did not arrive in time (408).
        case timedOut
        /// The client closed before sending a head (no answer).
        case closed
    }

    /// How many `name` headers (lowercased) came.
    func count(of name: String) -> Int { counts[name, default: 0] }

    /// The value of the query parameter `name`, when present.
    func queryValue(_ name: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// Reads a head from `connection`: at most ``maxHeadBytes``, within `timeout` seconds overall.
    static func read(from connection: Int32, timeout: TimeInterval = 5) -> Result<InspectorRequest, Failure> {
        let deadline = InspectorDeadline(seconds: timeout)
        var buffer: [UInt8] = []
        while true {
            if let end = headEnd(buffer) {
                guard end <= maxHeadBytes else { return .failure(.tooLarge) }
                return parse(Array(buffer[0..<end]))
            }
            guard buffer.count <= maxHeadBytes else { return .failure(.tooLarge) }
            let remaining = deadline.remainingMilliseconds
            guard remaining > 0, InspectorSocket.waitReadable(connection, milliseconds: remaining) else {
                return .failure(buffer.isEmpty ? .closed : .timedOut)
            }
            guard InspectorSocket.receive(connection, into: &buffer, count: 4096) != nil else {
                return .failure(buffer.isEmpty ? .closed : .malformed("the request head ended early"))
            }
        }
    }

    /// The length of the head up to the blank line that ends it (the `\r\n\r\n` included).
    private static func headEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 3..<buffer.count
        where buffer[index] == 0x0A && buffer[index - 1] == 0x0D && buffer[index - 2] == 0x0A && buffer[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// Parses a complete head (ending with `\r\n\r\n`).
    static func parse(_ head: [UInt8]) -> Result<InspectorRequest, Failure> {
        guard let text = String(bytes: head, encoding: .utf8) else { return .failure(.malformed("the head is not UTF-8")) }
        var lines = text.components(separatedBy: "\r\n")
        while lines.last == "" { lines.removeLast() }
        guard let requestLine = lines.first else { return .failure(.malformed("no request line")) }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
              parts[1].hasPrefix("/"), parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            return .failure(.malformed("bad request line"))
        }
        guard lines.count - 1 <= maxHeaders else { return .failure(.tooLarge) }
        var headers: [String: String] = [:]
        var counts: [String: Int] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let first = line.first, first != " ", first != "\t" else {
                return .failure(.malformed("bad header line"))
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else { return .failure(.malformed("bad header name")) }
            let key = name.lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            counts[key, default: 0] += 1
            if headers[key] == nil { headers[key] = value }
        }
        let target = parts[1]
        let path: Substring
        let query: Substring
        if let mark = target.firstIndex(of: "?") {
            path = target[..<mark]
            query = target[target.index(after: mark)...]
        } else {
            path = target
            query = ""
        }
        return .success(InspectorRequest(method: String(parts[0]), path: String(path), query: String(query),
                                         headers: headers, counts: counts))
    }

    /// Whether `character` may appear in a header name (an RFC 9110 token).
    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let ascii = character.asciiValue else { return false }
        if character.isLetter || character.isNumber { return true }
        return "!#$%&'*+-.^_`|~".utf8.contains(ascii)
    }
}
