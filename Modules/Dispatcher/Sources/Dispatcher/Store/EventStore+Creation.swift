import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Creating a store file atomically: a process killed at any write or sync of the first open
// leaves either no store (the next start creates it) or a complete one, never a half-made file
// that the signature check would take for another application's.
extension EventStore {
    /// The name a new store is built under before it is renamed into place.
    static func creationPath(of path: String) -> String { path + ".creating" }

    /// Builds a complete, empty store (16 KiB pages, schema, version, signature, write-ahead log
    /// mode) under ``creationPath(of:)``, syncs it, and renames it over `path`.
    ///
    /// Called only when the file at `path` is missing or holds no store yet (see
    /// ``EventStoreSignature/Kind/new``): leftovers of an earlier creation, and `-wal`/`-shm`
    /// files beside a file with nothing in it, are removed first.
    func createAtomically(_ state: inout State) throws {
        let building = Self.creationPath(of: path)
        for leftover in [building, building + "-wal", building + "-shm", building + "-journal", path + "-wal", path + "-shm"] {
            _ = unlink(leftover)
        }
        do {
            if let problem = try FileProtection.createFile(atPath: building) { state.protectionProblems.append(problem) }
        } catch StoreError.cannotOpen(_, let reason, let code) {
            throw StoreError.cannotOpen(path: path, reason: reason, errno: code)
        }
        do {
            let database = try SQLiteDatabase(path: building)
            defer { database.close() }
            try database.execute("PRAGMA page_size = \(EventStoreSchema.pageSize)")
            try database.execute("PRAGMA synchronous = FULL")
            try database.transaction {
                try database.execute(EventStoreSchema.create)
                try database.execute(EventStoreSchema.setVersion)
                try database.execute("PRAGMA application_id = \(EventStoreSignature.applicationID)")
            }
            // Persistent in the header; closing the only connection checkpoints and removes the log.
            try database.enableWriteAheadLog()
        } catch let error as SQLiteError {
            throw StoreError.from(error, path: path)
        }
        try syncToDisk(building, path: path)
        guard rename(building, path) == 0 else {
            let code = errno
            throw StoreError.cannotOpen(path: path, reason: "cannot move the new store into place: \(FileProtection.describe(code))", errno: code)
        }
        let folder = StorePath.folder(of: path)
        try? syncToDisk(folder.isEmpty ? "." : folder, path: path)
        // The class moved with the file; set again under its final name, as for an existing file.
        if let problem = FileProtection.protect(path) { state.protectionProblems.append(problem) }
    }
}

/// `fsync`s `file` (a file or a folder), so that what was written, or a rename, survives a
/// power loss.
func syncToDisk(_ file: String, path: String) throws {
    let descriptor = open(file, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
        let code = errno
        throw StoreError.cannotOpen(path: path, reason: "cannot open \(file) to sync it: \(FileProtection.describe(code))", errno: code)
    }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
        let code = errno
        throw StoreError.cannotOpen(path: path, reason: "cannot sync \(file): \(FileProtection.describe(code))", errno: code)
    }
}
