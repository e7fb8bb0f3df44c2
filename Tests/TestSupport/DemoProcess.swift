import Foundation
import Tracking

/// Runs the `demo` executable built beside the test bundle as a real child process.
// Unchecked: `process` and the pipes are `Sendable` in swift-corelibs-foundation but not in every
// Apple SDK the macOS workflow may build with; the rest of the state is in a `LockedValue`.
public final class DemoProcess: @unchecked Sendable {
    /// What the child printed so far, and which of its pipes reached end of file.
    private struct Printed {
        /// Standard output not yet split into lines (an unfinished last line).
        var output = Data()
        var lines: [String] = []
        var errorText = Data()
        var stdoutClosed = false
        var stderrClosed = false

        /// Appends standard output and moves each complete line to `lines`.
        mutating func append(_ data: Data) {
            output.append(data)
            while let newline = output.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: output[output.startIndex..<newline], as: UTF8.self))
                output.removeSubrange(output.startIndex...newline)
            }
        }
    }

    private let printed = LockedValue(Printed())
    private let process = Process()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let stdinPipe: Pipe?

    /// The `demo` binary: beside the test bundle in the build folder.
    public static func executableURL() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("demo")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw DemoProcessError(description: "no demo executable near \(bundle.path); run `swift build` first")
    }

    /// Starts `demo` with `arguments`; with `input`, its standard input is a pipe fed by
    /// ``write(_:)`` and ended by ``closeInput()`` (otherwise it inherits the test's).
    public init(_ arguments: [String], input: Bool = false) throws {
        process.executableURL = try Self.executableURL()
        process.arguments = arguments
        stdinPipe = input ? Pipe() : nil
        if let stdinPipe { process.standardInput = stdinPipe }
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        // Each pipe is drained by a thread of its own with blocking reads: no run loop or
        // dispatch source is needed, so a busy test process cannot starve the child's output.
        let output = stdoutPipe.fileHandleForReading
        let errors = stderrPipe.fileHandleForReading
        Thread.detachNewThread { [weak self] in
            while true {
                let data = output.availableData
                guard !data.isEmpty, let self else { break }
                self.printed.withLock { $0.append(data) }
            }
            self?.printed.withLock { $0.stdoutClosed = true }
        }
        Thread.detachNewThread { [weak self] in
            while true {
                let data = errors.availableData
                guard !data.isEmpty, let self else { break }
                self.printed.withLock { $0.errorText.append(data) }
            }
            self?.printed.withLock { $0.stderrClosed = true }
        }
        try process.run()
    }

    /// Writes `text` to the child's standard input (see ``init(_:input:)``).
    public func write(_ text: String) {
        stdinPipe?.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Ends the child's standard input.
    public func closeInput() {
        try? stdinPipe?.fileHandleForWriting.close()
    }

    /// The complete lines printed so far.
    public var outputLines: [String] { printed.withLock { $0.lines } }

    /// What was printed on standard error so far.
    public var standardError: String { printed.withLock { String(decoding: $0.errorText, as: UTF8.self) } }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Sends SIGKILL and waits for the process to be gone.
    public func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        drainPipes()
    }

    /// Waits up to `timeout` seconds for the process to exit; returns its status, or nil.
    /// Sleeps without blocking a thread of Swift's small cooperative pool.
    public func wait(timeout: TimeInterval) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        guard !process.isRunning else { return nil }
        drainPipes()
        return process.terminationStatus
    }

    /// Waits until at least `count` lines were printed, the process ended, or `timeout` passed.
    public func waitForLines(_ count: Int, timeout: TimeInterval) async -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let seen = outputLines.count
            if seen >= count || !process.isRunning { return seen }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return outputLines.count
    }

    /// Waits (briefly) until both pipes reached end of file, so every line is read.
    private func drainPipes() {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !printed.withLock({ $0.stdoutClosed && $0.stderrClosed }) { usleep(1_000) }
    }
}

/// The demo child could not be run.
public struct DemoProcessError: Error, CustomStringConvertible {
    public let description: String
}
