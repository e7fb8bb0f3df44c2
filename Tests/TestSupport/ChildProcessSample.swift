import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU seconds and peak resident memory of a running child process, read from `/proc/<pid>/`
/// (Linux only): the difference of two samples is what the child alone cost between them,
/// whatever else the test process runs meanwhile.
public struct ChildProcessSample: Sendable {
    /// User and system CPU time so far, in seconds (`utime` + `stime` of `/proc/<pid>/stat`).
    public var cpu: Double
    /// The peak resident set size so far, in MB (`VmHWM` of `/proc/<pid>/status`).
    public var peakMegabytes: Double

    /// Whether this system has `/proc/self/stat` to read samples from.
    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: "/proc/self/stat") }

    /// Reads the child `pid` now; nil once it has exited or where there is no `/proc`.
    public init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": field 3 is the state, so utime (14) and stime (15) are at 11 and 12.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        cpu = (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        peakMegabytes = (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }
}
