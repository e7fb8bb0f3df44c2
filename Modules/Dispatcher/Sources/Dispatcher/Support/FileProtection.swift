import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system helpers for the store and journal: owner-only files (0600) and folders (0700)
/// whatever the umask, and setting a damaged file aside by renaming it.
///
/// On iOS-family platforms new files also get `completeUntilFirstUserAuthentication` data
/// protection, so events can be written in the background after the first unlock.
enum FileProtection {
    /// Owner read and write.
    static let fileMode: mode_t = 0o600
    /// Owner read, write and search.
    static let directoryMode: mode_t = 0o700

    /// The current `errno` as a readable text.
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Creates `path` and any missing parent folders with mode 0700. Existing folders are kept.
    /// - Throws: ``StoreError/cannotOpen(path:reason:errno:)`` when a folder cannot be made.
    static func createDirectory(atPath path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .cannotOpen(path: path, reason: "exists and is not a folder", errno: ENOTDIR)
            }
            return
        }
        let parent = StorePath.folder(of: path)
        if !parent.isEmpty, parent != path { try createDirectory(atPath: parent) }
        if mkdir(path, directoryMode) != 0, errno != EEXIST {
            let code = errno
            throw .cannotOpen(path: path, reason: "cannot create folder: \(describe(code))", errno: code)
        }
        _ = chmod(path, directoryMode)
    }

    /// Creates `path` as an empty owner-only file if it does not exist, and sets mode 0600 on it
    /// either way (independent of the umask).
    /// - Throws: ``StoreError/cannotOpen(path:reason:errno:)`` when it cannot be created.
    static func createFile(atPath path: String) throws(StoreError) {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else {
            let code = errno
            throw .cannotOpen(path: path, reason: "cannot create file: \(describe(code))", errno: code)
        }
        _ = fchmod(descriptor, fileMode)
        close(descriptor)
        protect(path)
    }

    /// Sets mode 0600 on `path` if it exists.
    static func restrict(_ path: String) {
        _ = chmod(path, fileMode)
    }

    /// Applies the platform's data protection class to a file (iOS family only; no-op elsewhere).
    static func protect(_ path: String) {
        #if os(iOS) || os(tvOS) || os(watchOS)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
        #endif
    }

    /// Renames a damaged database and its `-wal`/`-shm` companions to
    /// `<path>.corrupt-<yyyyMMdd-HHmmss-SSS>` (plus the same suffixes), never deleting anything.
    /// - Returns: the new path of the main file, or `nil` when it could not be renamed.
    static func setAside(_ path: String, now: Date = Date()) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss-SSS"
        var target = "\(path).corrupt-\(formatter.string(from: now))"
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = "\(path).corrupt-\(formatter.string(from: now))-\(attempt)"
        }
        guard rename(path, target) == 0 else { return nil }
        for suffix in ["-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            _ = rename(path + suffix, target + suffix)
        }
        return target
    }
}
