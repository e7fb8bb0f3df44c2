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
    /// (0 for a field not found, and off Linux): one read per sample keeps the sampler cheap.
    static func fields(_ names: String...) -> [Double] {
        var values = [Double](repeating: 0, count: names.count)
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return values }
        for line in text.split(separator: "\n") {
            guard let index = names.firstIndex(where: { line.hasPrefix($0 + ":") }) else { continue }
            let number = line.dropFirst(names[index].count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Double($0) } ?? 0
            values[index] = number / 1024
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
