import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `flush`, `requeue`, `monitor` and `inspect` check before they open `--store PATH`: the
/// path must name an existing, non-empty regular file (and, for a command that writes, one
/// whose file and folder are writable). Reading the file's signature is left to ``EventStore``, which refuses a file
/// that is not a store without touching it. Nothing here creates or changes a file.
enum StoreFileCheck {
    /// Throws ``StoreFileRefusal`` naming why `path` cannot be opened as a store.
    /// - Parameters:
    ///   - path: the `--store` value.
    ///   - command: the command that writes to the store (`flush`, `requeue`), named in the
    ///     refusal; nil for a command that only reads it.
    static func require(_ path: String, writingFor command: String? = nil) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw StoreFileRefusal("no store at \(path): \(String(cString: strerror(code)))")
        }
        let type = info.st_mode & S_IFMT
        guard type != S_IFDIR else { throw StoreFileRefusal("\(path) is a folder, not a store file") }
        guard type == S_IFREG else { throw StoreFileRefusal("\(path) is not a regular file, not a store file") }
        guard info.st_size > 0 else { throw StoreFileRefusal("\(path) is an empty file, not a store") }
        guard let command else { return }
        // The permission bits, not only access(2): root may write anything, but a store made
        // read-only on purpose (chmod 0444) is not flushed.
        if info.st_mode & 0o222 == 0 || access(path, W_OK) != 0 {
            throw StoreFileRefusal("store \(path) is read-only (mode \(String(info.st_mode & 0o777, radix: 8))); \(command) needs to write to it")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let folderPath = folder.isEmpty ? "." : folder
        var folderInfo = stat()
        if stat(folderPath, &folderInfo) == 0, folderInfo.st_mode & 0o222 == 0 || access(folderPath, W_OK) != 0 {
            throw StoreFileRefusal(
                "the folder of store \(path) is read-only (mode \(String(folderInfo.st_mode & 0o777, radix: 8))); \(command) needs to write its log beside it")
        }
    }
}
