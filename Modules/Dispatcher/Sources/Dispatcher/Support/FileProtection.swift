import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system helpers for the store and journal: owner-only files (0600) and folders (0700)
/// whatever the umask, data protection, and setting a damaged file aside by renaming it.
///
/// On iOS-family platforms (iOS, tvOS, watchOS, visionOS) every folder the SDK creates gets
/// `completeUntilFirstUserAuthentication` data protection before it appears under its name, so
/// every file made inside inherits it (the store, its `-wal`/`-shm`, the lock, the journal's
/// segments); files that may exist already get it explicitly. Events can then be written in the
/// background once the device was unlocked after boot. A failure to set the class is returned to
/// the caller, which reports it (``DispatcherDiagnostic``), never silently dropped.
enum FileProtection {
    /// Owner read and write.
    static let fileMode: mode_t = 0o600
    /// Owner read, write and search.
    static let directoryMode: mode_t = 0o700

    /// Replaces how the protection class is applied, for tests: returns the problem, or `nil`.
    /// Read only when a folder is created or a file protected (never per event).
    @TaskLocal static var applyOverride: (@Sendable (String) -> String?)?

    /// The current `errno` as a readable text; a resource that ran out names its limit.
    static func describe(_ code: Int32) -> String { ResourceLimit.exhaustion(code) ?? String(cString: strerror(code)) }

    /// Creates `path` and any missing parent folders, each 0700 and (iOS family) protected before
    /// it takes its name: it is made under a temporary sibling name, given its mode and class,
    /// then renamed into place, so no other process ever sees it with other permissions, whatever
    /// the umask. Existing folders are kept as they are.
    /// - Returns: the protection problems met (empty when none), for the caller to report.
    /// - Throws: ``StoreError/cannotOpen(path:reason:errno:)`` when a folder cannot be made.
    @discardableResult
    static func createDirectory(atPath path: String) throws(StoreError) -> [String] {
        if let isFolder = isFolder(path) {
            guard isFolder else {
                throw .cannotOpen(path: path, reason: "exists and is not a folder", errno: ENOTDIR)
            }
            return []
        }
        var problems: [String] = []
        let parent = StorePath.folder(of: path)
        if !parent.isEmpty, parent != path { problems += try createDirectory(atPath: parent) }
        let staging = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(staging, directoryMode) == 0 else {
            let code = errno
            throw .cannotOpen(path: path, reason: "cannot create folder: \(describe(code))", errno: code)
        }
        // The umask may have removed owner bits: the folder is not visible under its name yet.
        _ = chmod(staging, directoryMode)
        if let problem = protect(staging) { problems.append(problem.replacingOccurrences(of: staging, with: path)) }
        if rename(staging, path) != 0 {
            let code = errno
            rmdir(staging)
            // Another creator won the race: its folder stands.
            if isFolder(path) != true {
                throw .cannotOpen(path: path, reason: "cannot create folder: \(describe(code))", errno: code)
            }
        }
        return problems
    }

    /// Whether `path`, links followed, is a folder; nil when nothing is there (or it cannot be
    /// seen). `stat`, not `FileManager`, whose first use costs the thread that opens a store.
    static func isFolder(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` as an empty owner-only file if it does not exist, and sets mode 0600 on it
    /// either way (independent of the umask). Never through a symbolic link, and only a regular
    /// file (``RegularFile``).
    /// - Returns: the protection problem met, if any.
    /// - Throws: ``StoreError/cannotOpen(path:reason:errno:)`` when it cannot be created.
    @discardableResult
    static func createFile(atPath path: String) throws(StoreError) -> String? {
        let descriptor: Int32
        switch RegularFile.openFile(path, flags: O_CREAT | O_RDWR) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): throw .cannotOpen(path: path, reason: "cannot create file: \(failure.reason)", errno: failure.errno)
        }
        _ = fchmod(descriptor, fileMode)
        close(descriptor)
        return protect(path)
    }

    /// Sets mode 0600 on `path` if it is a regular file (never through a symbolic link), without
    /// opening it: the store's `-wal` and `-shm` are open in SQLite, and closing a descriptor of
    /// our own on them would drop every POSIX lock the process holds on the file (SQLite's
    /// locks, which keep a reader in another process off pages being checkpointed). The store's
    /// folder is the owner's alone, so nobody else can swap the file between the two calls.
    static func restrict(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o7777 != fileMode else { return }
        _ = chmod(path, fileMode)
    }

    /// Applies `completeUntilFirstUserAuthentication` to a file or folder (iOS family; elsewhere
    /// nothing, unless a test set ``applyOverride``).
    /// - Returns: why it could not be applied, or `nil`.
    static func protect(_ path: String) -> String? {
        if let applyOverride { return applyOverride(path) }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        do {
            try FileManager.default.setAttributes(
                [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
        } catch {
            return "cannot set data protection on \(path): \(error.localizedDescription)"
        }
        #endif
        return nil
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
