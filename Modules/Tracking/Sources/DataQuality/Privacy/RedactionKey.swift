import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The secret key of hashed redactions: 32 random bytes made once per installation and kept in
/// a file of its own that only its owner can read (0600). Hashes are HMAC-SHA256 under it, so
/// equal values match within one installation and differ between installations, and nobody
/// without the key can test a guess. The key is never sent, printed or described.
public struct RedactionKey: Sendable, Equatable, CustomStringConvertible {
    /// The key's length in bytes.
    static let length = 32
    /// The secret.
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// A new random key from the system's secure generator, kept in memory only.
    public static func random() -> RedactionKey {
        var generator = SystemRandomNumberGenerator()
        return RedactionKey(bytes: (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Never the secret.
    public var description: String { "RedactionKey(secret)" }

    /// The key kept in the file at `path`, made (random, 0600, created exclusively) when there
    /// is none. The file is opened without following a symbolic link and must be a regular file
    /// owned by this user; a file shorter than a key (a creation cut short) is made again.
    /// - Throws: ``IdentityStoreError`` when the file cannot be read or made, or is not a
    ///   regular file.
    public static func loadOrCreate(atPath path: String) throws -> RedactionKey {
        if let existing = try read(path) { return existing }
        let key = random()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // Another opener made it meanwhile: read theirs.
            if errno == EEXIST, let existing = try read(path) { return existing }
            throw failure("create", path)
        }
        defer { close(descriptor) }
        _ = fchmod(descriptor, 0o600)
        FileIdentityStore.protect(path)
        let written = key.bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == length, fsync(descriptor) == 0 else {
            let error = failure("write", path)
            unlink(path)
            throw error
        }
        return key
    }

    /// A new key in the file at `path`, in place of the one there (see ``loadOrCreate(atPath:)``):
    /// hashes made under it do not match those made under the old one.
    /// - Throws: ``IdentityStoreError`` when the old file cannot be removed or the new one made.
    public static func replace(atPath path: String) throws -> RedactionKey {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("remove", path) }
        return try loadOrCreate(atPath: path)
    }

    /// The key in the file at `path`, `nil` when there is none yet (or only the start of one,
    /// which is removed).
    private static func read(_ path: String) throws -> RedactionKey? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("read", path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw IdentityStoreError(operation: "open", path: path, errorNumber: EINVAL, reason: "not a regular file")
        }
        guard info.st_uid == geteuid() else {
            throw IdentityStoreError(operation: "open", path: path, errorNumber: EPERM, reason: "owned by another user")
        }
        var bytes = [UInt8](repeating: 0, count: length)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, 0) }
        guard count >= 0 else { throw failure("read", path) }
        guard count == length else {
            unlink(path)
            return nil
        }
        if info.st_mode & 0o077 != 0 { _ = fchmod(descriptor, 0o600) }
        return RedactionKey(bytes: bytes)
    }

    private static func failure(_ operation: String, _ path: String) -> IdentityStoreError {
        let code = errno
        return IdentityStoreError(operation: operation, path: path, errorNumber: code, reason: String(cString: strerror(code)))
    }
}
