@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// The store never closes a descriptor of its own on a file SQLite has open: POSIX locks belong to
/// the process, and closing any descriptor on a file drops them all, SQLite's included. Without
/// its lock on the `-shm` file, a reader in another process (the monitor) reads pages a checkpoint
/// is overwriting: rows listed twice, or "database disk image is malformed".
@Suite("SQLite keeps its locks on the store's files")
struct SQLiteLocksTests {
    /// Whether another process sees a lock on byte 128 of `shm` (SQLite's "DMS" lock, which every
    /// connection holds shared for its whole life): `python3` asks with `F_GETLK`.
    static func lockSeenFromAnotherProcess(_ shm: String) throws -> Bool {
        let script = """
        import fcntl, os, struct, sys
        fd = os.open(sys.argv[1], os.O_RDWR)
        probe = struct.pack('hhllh', fcntl.F_WRLCK, 0, 128, 1, 0)
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, probe)
        print('locked' if struct.unpack('hhllh', answer)[0] != fcntl.F_UNLCK else 'free')
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, shm]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.contains("locked")
    }

    @Test("after opening (its -wal and -shm made owner-only), the store's connection still holds its lock on the -shm")
    func openingKeepsTheSharedMemoryLock() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        // An earlier run's store, reopened: its -wal and -shm exist when the store opens them.
        do {
            let first = try EventStore(path: path)
            try first.insert([sampleEvent(1)])
            first.close()
        }
        let store = try EventStore(path: path)
        defer { store.close() }
        try store.insert([sampleEvent(2)])
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try Self.lockSeenFromAnotherProcess(path + "-shm"), "the store's connection lost its lock on the -shm")
        #expect(permissions(path + "-shm") == 0o600 && permissions(path + "-wal") == 0o600)
    }
}
