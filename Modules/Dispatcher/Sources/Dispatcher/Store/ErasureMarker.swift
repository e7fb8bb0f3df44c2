import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The deletions for privacy not yet applied (see `PendingErasure`), kept in a file beside the
/// store (`<store>.erasure`, owner-only) so that a process killed before the store opened still
/// applies them at its next start, before anything is delivered.
///
/// The file is replaced whole (a new file made without following links, flushed to disk, renamed over
/// the old one), so it is never read half-written. A marker whose content cannot be understood
/// asks for everything to be deleted (losing events is the safer error for a privacy request);
/// one that cannot be opened for now keeps the store from opening until it can.
struct ErasureMarker: Sendable {
    /// Where the marker lives.
    let path: String

    /// The marker of the store at `storePath`.
    init(storePath: String) {
        path = storePath + ".erasure"
    }

    /// What the marker asks for; empty when there is none (or something that is not a regular
    /// file is in its place).
    /// - Throws: ``StoreError/cannotOpen(path:reason:errno:)`` when a marker may be there but
    ///   cannot be read now (protected data before the first unlock): the store is not opened then.
    func read() throws -> PendingErasure {
        let descriptor: Int32
        switch RegularFile.openFile(path, flags: O_RDONLY) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            if [ENOENT, ENOTDIR, ELOOP, EINVAL].contains(failure.errno) { return PendingErasure() }
            throw StoreError.cannotOpen(path: path, reason: failure.reason, errno: failure.errno)
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        let count = bytes.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let decoded = try? JSONDecoder().decode(PendingErasure.self, from: Data(bytes[0..<count])) else {
            return .everything
        }
        return decoded
    }

    /// Replaces the marker by one asking for `pending` (removes it when `pending` is empty).
    /// - Throws: ``StoreError/cannotOpen(path:reason:errno:)`` when the file cannot be written.
    func write(_ pending: PendingErasure) throws {
        guard !pending.isEmpty else { return remove() }
        let data = try JSONEncoder().encode(pending)
        let temporary = path + ".new"
        _ = unlink(temporary)
        let descriptor: Int32
        switch RegularFile.openFile(temporary, flags: O_WRONLY | O_CREAT | O_EXCL) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): throw StoreError.cannotOpen(path: temporary, reason: failure.reason, errno: failure.errno)
        }
        let written = data.withUnsafeBytes { writeBytes(descriptor, $0.baseAddress, $0.count) }
        let synced = DurableSync.flush(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            let code = errno
            _ = unlink(temporary)
            throw StoreError.cannotOpen(path: path, reason: FileProtection.describe(code), errno: code)
        }
        syncFolder()
    }

    /// Removes the marker, once what it asked for was applied.
    func remove() {
        if unlink(path) == 0 { syncFolder() }
    }

    /// Makes the rename or removal in the store's folder durable (best effort: the marker is
    /// already written whole).
    private func syncFolder() {
        let folder = StorePath.folder(of: path)
        try? syncToDisk(folder.isEmpty ? "." : folder, path: path)
    }
}

/// `write(2)`, named apart from ``ErasureMarker/write(_:)``.
private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// `read(2)`, named apart from ``ErasureMarker/read()``.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
