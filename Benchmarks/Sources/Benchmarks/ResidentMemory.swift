import Foundation
import Tracking

/// Resident memory of this process, from `/proc/self/status` (Linux; 0 elsewhere).
///
/// `VmRSS` is the total; `RssAnon` is heap and stacks; `RssFile` is file pages mapped in, such
/// as the journal's memory-mapped segments and SQLite's files, which the kernel can write back
/// and drop under pressure.
enum ResidentMemory {
    /// Resident set size now, in MiB.
    static func currentMegabytes() -> Double { fields("VmRSS")[0] }

    /// Anonymous resident memory (heap, stacks) now, in MiB.
    static func anonymousMegabytes() -> Double { fields("RssAnon")[0] }

    /// The most resident memory this process ever had (`VmHWM`, the kernel's high-water mark),
    /// in MiB.
    static func highWaterMegabytes() -> Double { fields("VmHWM")[0] }

    /// The named fields of one reading of `/proc/self/status`, in MiB, in the order asked
    /// (0 for a field not found, and off Linux). The samplers read it every few milliseconds
    /// beside the work they measure, so it is read into one buffer and scanned as bytes.
    static func fields(_ names: String...) -> [Double] {
        var values = [Double](repeating: 0, count: names.count)
        #if os(Linux)
        let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return values }
        defer { close(descriptor) }
        var text = [UInt8](repeating: 0, count: 16_384)
        var count = 0
        while count < text.count {
            let read = text.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            guard read > 0 else { break }
            count += read
        }
        let prefixes = names.map { Array(($0 + ":").utf8) }
        for line in text[..<count].split(separator: 10) {
            guard let index = prefixes.firstIndex(where: { line.starts(with: $0) }) else { continue }
            // "VmRSS:	   12345 kB": the digits are kibibytes.
            let kibibytes = line.dropFirst(prefixes[index].count).reduce(0) { (48...57).contains($1) ? $0 * 10 + Int($1 - 48) : $0 }
            values[index] = Double(kibibytes) / 1024
        }
        #endif
        return values
    }

    /// Samples resident memory every few milliseconds on its own thread and keeps the peaks.
    final class Sampler: Sendable {
        private struct State {
            var peak = 0.0
            var peakAnonymous = 0.0
            var running = true
        }

        private let state = LockedValue(State())

        init() {
            Thread.detachNewThread { [state] in
                while state.withLock({ $0.running }) {
                    let reading = ResidentMemory.fields("VmRSS", "RssAnon")
                    state.withLock {
                        $0.peak = max($0.peak, reading[0])
                        $0.peakAnonymous = max($0.peakAnonymous, reading[1])
                    }
                    usleep(5_000)
                }
            }
        }

        /// Stops sampling and returns the peaks (total, anonymous), in MiB.
        func stop() -> (total: Double, anonymous: Double) {
            let total = ResidentMemory.currentMegabytes()
            let anonymous = ResidentMemory.anonymousMegabytes()
            return state.withLock {
                $0.running = false
                return (max($0.peak, total), max($0.peakAnonymous, anonymous))
            }
        }
    }
}
