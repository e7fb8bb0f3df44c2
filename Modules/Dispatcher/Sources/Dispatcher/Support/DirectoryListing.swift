import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a folder, read with `opendir`/`readdir`, so a failure keeps its real `errno`
/// (Foundation's listing reports running out of descriptors as its own code 256).
enum DirectoryListing {
    /// Why a folder could not be listed: the system error.
    struct Failure: Error {
        /// The `errno` of `opendir` or `readdir`.
        let code: Int32
    }

    /// The names in the folder at `path`, without `.` and `..`, in no particular order.
    /// - Throws: ``Failure`` with the system error when the folder cannot be opened or read.
    static func names(atPath path: String) throws(Failure) -> [String] {
        guard let directory = opendir(path) else { throw Failure(code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw Failure(code: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
    }
}
