/// Path arithmetic for store files that never traps, whatever the path: relative, one
/// character, a trailing slash, `.` or `/`.
enum StorePath {
    /// The folder part of `path`: `""` for a bare file name, `/` for a file at the root.
    static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }
}
