import Foundation
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An ``IdentityStore`` in one JSON file, readable only by its owner (mode 0600), in a folder
/// created 0700 whatever the umask; on iOS-family platforms both have
/// `completeUntilFirstUserAuthentication` data protection (readable in the background after the
/// first unlock).
///
/// Every change rewrites the file atomically: the new contents go to a temporary file in the
/// same folder, which is flushed to disk (`F_FULLFSYNC` on Darwin) and renamed over the old one,
/// so a crash or a power loss leaves either the old or the new file, never a torn one. A file that cannot be parsed is set aside as
/// `<name>.corrupt` and the store starts empty (see ``recoveredFromCorruption``).
final class FileIdentityStore: IdentityStore {
    private let values: LockedValue<[String: String]>
    /// The file.
    public let url: URL
    /// Whether the file existed but could not be parsed and was set aside.
    public let recoveredFromCorruption: Bool

    /// Opens (or prepares to create) the store at `url`; creates its folder.
    /// - Throws: ``IdentityStoreError`` when the folder cannot be created or the file cannot be read.
    public init(url: URL) throws {
        self.url = url
        let folder = url.deletingLastPathComponent()
        try Self.createPrivateFolder(folder.path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            values = LockedValue([:])
            recoveredFromCorruption = false
            return
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw IdentityStoreError(operation: "read", path: url.path, reason: error.localizedDescription)
        }
        if let decoded = try? JSONDecoder().decode([String: String].self, from: data) {
            values = LockedValue(decoded)
            recoveredFromCorruption = false
        } else {
            let aside = url.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            values = LockedValue([:])
            recoveredFromCorruption = true
        }
    }

    /// The value under `key`.
    public func value(forKey key: String) -> String? { values.withLock { $0[key] } }

    /// Stores `value` under `key` and rewrites the file.
    public func setValue(_ value: String, forKey key: String) throws {
        try update { $0[key] = value }
    }

    /// Removes the value under `key` and rewrites the file.
    public func removeValue(forKey key: String) throws {
        try update { $0.removeValue(forKey: key) }
    }

    /// Removes every value whose key starts with `prefix` and rewrites the file.
    public func removeAll(withPrefix prefix: String) throws {
        try update { values in values = values.filter { !$0.key.hasPrefix(prefix) } }
    }

    private func update(_ change: (inout [String: String]) -> Void) throws {
        try values.withLock { values in
            var next = values
            change(&next)
            guard next != values || !FileManager.default.fileExists(atPath: url.path) else { return }
            try persist(next)
            values = next
        }
    }

    private func persist(_ contents: [String: String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = (try? encoder.encode(contents)) ?? Data("{}".utf8)
        let temporary = url.path + ".tmp-\(getpid())"
        // Made anew, never through a symbolic link planted under the temporary name.
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw systemError("create", temporary) }
        var failed: IdentityStoreError?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = systemError("write", temporary)
                    return
                }
                offset += written
            }
        }
        if failed == nil, Self.flushToDisk(descriptor) != 0 { failed = systemError("flush", temporary) }
        Self.protect(temporary)
        close(descriptor)
        if let failed {
            unlink(temporary)
            throw failed
        }
        guard rename(temporary, url.path) == 0 else {
            let error = systemError("rename", url.path)
            unlink(temporary)
            throw error
        }
    }

    /// Creates `path` (and missing parents) 0700 and protected before it takes its name: made
    /// under a temporary sibling name, then renamed into place. Existing folders are kept.
    private static func createPrivateFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createPrivateFolder(parent) }
        let staging = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(staging, 0o700) == 0 else {
            let code = errno
            throw IdentityStoreError(operation: "create folder", path: path, errorNumber: code, reason: String(cString: strerror(code)))
        }
        _ = chmod(staging, 0o700)
        protect(staging)
        if rename(staging, path) != 0 {
            let code = errno
            rmdir(staging)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                throw IdentityStoreError(operation: "create folder", path: path, errorNumber: code, reason: String(cString: strerror(code)))
            }
        }
    }

    /// Gives a file or folder `completeUntilFirstUserAuthentication` (iOS family; elsewhere nothing).
    static func protect(_ path: String) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
        #endif
    }

    /// `fsync`, and on Darwin `F_FULLFSYNC` first (plain `fsync` leaves data in the drive's cache).
    private static func flushToDisk(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor)
    }

    private func systemError(_ operation: String, _ path: String) -> IdentityStoreError {
        let code = errno
        return IdentityStoreError(operation: operation, path: path, errorNumber: code, reason: String(cString: strerror(code)))
    }
}
