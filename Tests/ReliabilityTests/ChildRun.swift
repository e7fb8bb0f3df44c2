import Foundation
import TestSupport

/// One run of a child process to its end, bounded in time: how it ended and what it printed on
/// standard error (standard output is discarded).
struct ChildRun {
    /// The signal that ended it, or `nil` when it exited.
    var signal: Int32?
    /// Its exit status, or `nil` when a signal ended it.
    var status: Int32?
    /// What it printed on standard error.
    var standardError: String
    /// How long it ran, in seconds.
    var seconds: TimeInterval

    /// Runs `executable` with `arguments` to its end; after `timeout` seconds it is killed
    /// (SIGKILL) and reported as such.
    static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval) async throws -> ChildRun {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let errors = try FileHandle(forWritingTo: log)
        defer { try? errors.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let started = Date()
        try process.run()
        let deadline = started.addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try? await Task.sleep(nanoseconds: 5_000_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let seconds = Date().timeIntervalSince(started)
        let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        let bySignal = process.terminationReason == .uncaughtSignal
        return ChildRun(signal: bySignal ? process.terminationStatus : nil, status: bySignal ? nil : process.terminationStatus,
                        standardError: text, seconds: seconds)
    }

    /// The `demo` executable built beside the tests.
    static func demo() throws -> URL { try DemoProcess.executableURL() }
}
