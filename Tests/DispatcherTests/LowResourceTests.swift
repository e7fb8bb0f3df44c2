#if os(Linux)
import Foundation
import TestSupport
import Testing

/// `demo generate` under `prlimit`: too few file descriptors, too little address space. Whatever
/// the limit, the child ends by itself (no crash signal, no hang) and either does its work or
/// says, in one clear line, which limit stopped it.
@Suite("Low resources: demo generate under prlimit", .serialized, .runsAlone)
struct LowResourceTests {
    /// How a limited run ended.
    struct Outcome: CustomStringConvertible {
        var status: Int32?
        var signal: Int32?
        var hung: Bool
        /// Standard error: the summary line, or the error.
        var errors: String
        var description: String {
            "status \(status.map(String.init) ?? "-"), signal \(signal.map(String.init) ?? "-"), hung \(hung); "
                + "stderr: \(errors.prefix(600))"
        }
    }

    /// Runs `demo generate --count 2000` on a fresh store under `prlimit <limit>`, for at most
    /// `timeout` seconds (then SIGKILL, counted as a hang).
    static func generate(under limit: String, timeout: TimeInterval = 30) async throws -> Outcome {
        let folder = try TemporaryDirectory(prefix: "low-resources")
        let stderr = folder.file("stderr")
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = [limit, try DemoProcess.executableURL().path, "generate", "--count", "2000",
                             "--store", folder.file("s.sqlite").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderr)
        // No core files and no backtracer: a crash must show as its signal, quickly.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        let hung = process.isRunning
        if hung { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let signalled = process.terminationReason == .uncaughtSignal
        return Outcome(status: signalled || hung ? nil : process.terminationStatus,
                       signal: signalled && !hung ? process.terminationStatus : nil, hung: hung,
                       errors: (try? String(contentsOf: stderr, encoding: .utf8)) ?? "")
    }

    /// The run did its work, or refused with one error naming `limitName = value`; it never
    /// crashed, hung or gave a misleading cause.
    static func expectClear(_ outcome: Outcome, limitName: String, value: Int) {
        #expect(!outcome.hung, "hung: \(outcome)")
        #expect(outcome.signal == nil, "crashed: \(outcome)")
        guard let status = outcome.status else { return }
        if status == 0 {
            #expect(outcome.errors.contains("persisted 2000"), "\(outcome)")
        } else {
            #expect(status == 1, "\(outcome)")
            #expect(outcome.errors.contains("\(limitName) = \(value)"), "the error names the limit: \(outcome)")
        }
        for misleading in ["Unknown error", "is read-only", "Fatal error"] {
            #expect(!outcome.errors.contains(misleading), "misleading \"\(misleading)\": \(outcome)")
        }
    }

    @Test("With 5 to 12 file descriptors: done, or out of file descriptors (RLIMIT_NOFILE = N)",
          arguments: [5, 6, 7, 8, 9, 10, 11, 12])
    func descriptors(limit: Int) async throws {
        let outcome = try await Self.generate(under: "--nofile=\(limit)")
        Self.expectClear(outcome, limitName: "RLIMIT_NOFILE", value: limit)
    }

    @Test("With 100 to 400 MB of address space: done, or out of address space (RLIMIT_AS = N)",
          arguments: [100_000_000, 120_000_000, 140_000_000, 400_000_000])
    func addressSpace(limit: Int) async throws {
        let outcome = try await Self.generate(under: "--as=\(limit)")
        Self.expectClear(outcome, limitName: "RLIMIT_AS", value: limit)
    }

    @Test("Enough of both: the limits leave an ordinary run alone")
    func enough() async throws {
        let outcome = try await Self.generate(under: "--nofile=64")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.errors.contains("persisted 2000"), "\(outcome)")
    }
}
#endif
