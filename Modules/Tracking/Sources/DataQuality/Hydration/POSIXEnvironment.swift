#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX reads of the process's environment, links and small files: no Foundation, so
/// nothing here loads ICU.
enum POSIXEnvironment {
    /// The set variables among `names`, by name.
    static func values(of names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    /// What the symbolic link at `path` points to, as written in the link; nil when it is no link.
    static func symbolicLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first `limit` bytes of the file at `path` as UTF-8 text; nil when it cannot be read.
    static func firstBytes(ofFile path: String, limit: Int = 1024) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = fread(&buffer, 1, limit, file)
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}
