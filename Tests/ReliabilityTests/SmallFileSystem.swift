import Foundation
import TestSupport
import Tracking

/// A real, small file system (tmpfs) mounted on a fresh folder, so a test can fill the disk for
/// real and then grow it. Needs root (CI runs as root); ``isAvailable`` says whether mounting works.
final class SmallFileSystem: Sendable {
    /// The mounted folder.
    let url: URL
    private let folder: TemporaryDirectory
    /// Whether the tmpfs is mounted (until ``unmount()``).
    private let mounted = LockedValue(false)

    /// Whether this machine lets the tests mount a tmpfs (root on Linux).
    static let isAvailable: Bool = {
        #if os(Linux)
        guard geteuid() == 0, let probe = try? SmallFileSystem(bytes: 1 << 20) else { return false }
        probe.unmount()
        return true
        #else
        return false
        #endif
    }()

    /// Mounts a tmpfs of `bytes` bytes.
    init(bytes: Int) throws {
        folder = try TemporaryDirectory(prefix: "small-fs")
        url = folder.url
        try Self.mount(["-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", url.path])
        mounted.withLock { $0 = true }
    }

    /// Gives the file system room: its size becomes `bytes`, keeping its files.
    func grow(to bytes: Int) throws {
        try Self.mount(["-o", "remount,size=\(bytes)", url.path])
    }

    /// A path inside the file system.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Unmounts (the files go with it). Idempotent.
    func unmount() {
        let wasMounted = mounted.withLock { was in
            defer { was = false }
            return was
        }
        guard wasMounted else { return }
        try? Self.run("/usr/bin/umount", ["-l", url.path])
    }

    deinit { unmount() }

    private static func mount(_ arguments: [String]) throws { try run("/usr/bin/mount", arguments) }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: tool) ? tool : "/bin/" + (tool as NSString).lastPathComponent)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MountError(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}

/// Mounting or unmounting failed.
struct MountError: Error, CustomStringConvertible {
    let description: String
}
