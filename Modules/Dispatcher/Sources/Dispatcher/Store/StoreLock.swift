import Foundation
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive claim one process holds on a store while it writes it: `<store>.lock`, locked
/// with `flock` and holding the owner's process id.
///
/// Two writers on one store would each replay, count and claim the same rows, so a second one
/// (another process, or a second open in the same process) is refused at once with
/// ``StoreError/inUse(path:pid:)``. The kernel releases the lock when the owner closes the store
/// or dies, even by `kill -9`, so a crashed run never blocks the next one. Readers (the monitor)
/// need no lock.
final class StoreLock: Sendable {
    /// The lock file's descriptor; -1 once released.
    private let descriptor: LockedValue<Int32>

    /// The lock file.
    let path: String
    /// Why the lock file could not be given the data protection class, if so.
    let protectionProblem: String?

    /// Takes the lock on the store at `storePath`, or throws.
    /// - Throws: ``StoreError/inUse(path:pid:)`` when another writer holds it,
    ///   ``StoreError/cannotOpen(path:reason:errno:)`` when the lock file cannot be made.
    init(storePath: String) throws(StoreError) {
        path = storePath + ".lock"
        // Never through a symbolic link, and only a regular file: a link planted in the folder
        // must not make this run truncate or change the mode of another file.
        let descriptor: Int32
        switch RegularFile.openFile(path, flags: O_CREAT | O_RDWR) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            throw .cannotOpen(path: path, reason: "cannot create the lock file: \(failure.reason)", errno: failure.errno)
        }
        _ = fchmod(descriptor, FileProtection.fileMode)
        protectionProblem = FileProtection.protect(path)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let owner = Self.readOwner(descriptor)
            close(descriptor)
            if code == EWOULDBLOCK || code == EAGAIN { throw .inUse(path: storePath, pid: owner) }
            throw .cannotOpen(path: path, reason: "cannot lock: \(FileProtection.describe(code))", errno: code)
        }
        var text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, &text, text.count, 0)
        self.descriptor = LockedValue(descriptor)
    }

    deinit { release() }

    /// Gives the lock up (closing the file releases it). Idempotent.
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    /// The process id written in the lock file by its owner, when readable.
    private static func readOwner(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }
}
