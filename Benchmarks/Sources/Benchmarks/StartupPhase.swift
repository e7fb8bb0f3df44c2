import Analytics
import Dispatcher
import Foundation
import Onboarding
import Workload

/// Start-up as an app pays it: from `Analytics(configuration:)` in a fresh process through the
/// first `send` returning, with the command line's default configuration and
/// `analytics.reporter(for:)`.
///
/// Each figure is the median of ``runs`` fresh child processes of the demo
/// (`demo bench --startup-probe STORE`), so that nothing the bench loaded or warmed before counts:
/// `startup_ms_empty` on a new store path, `startup_ms_backlog` on a copy of a store holding the
/// backlog (nothing is delivered: the collector is unreachable on purpose, and the copy is
/// thrown away).
public enum StartupPhase {
    /// Child processes per figure.
    static let runs = 5
    /// The line the child prints: `startup_ms <value>`.
    static let key = "startup_ms"

    /// Starts a runtime on `storePath`, sends one event through a reporter, and returns the
    /// milliseconds from just before `Analytics(configuration:)` through that send returning;
    /// then waits for the event to be persisted and closes, so the child exits cleanly.
    /// - Throws: what the start throws, or ``BenchError`` when the event was not persisted.
    public static func probe(storePath: String) async throws -> Double {
        let configuration = AnalyticsConfiguration.commandLine(storePath: storePath)
        let start = DispatchTime.now().uptimeNanoseconds
        let analytics = try Analytics(configuration: configuration)
        LoadGenerator(reporter: analytics.reporter(for: OnboardingAnalytics.self)).send(0)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let drained = await analytics.drain(timeout: 60)
        let persisted = analytics.counters.persisted
        await analytics.close()
        guard drained.persisted, persisted == 1 else {
            throw BenchError("the start-up probe's event was not persisted: \(analytics.dispatcher.storage)")
        }
        return elapsed
    }

    /// The median of ``runs`` probes of `demo bench --startup-probe`, each in a fresh child
    /// process, on a new store path in `directory` (`copying` nil) or on a fresh copy of the
    /// store at `copying` (its journal and write-ahead log with it).
    static func measure(directory: URL, copying source: String?) throws -> Double {
        var samples: [Double] = []
        for run in 0..<runs {
            let folder = directory.appendingPathComponent("startup-\(source == nil ? "empty" : "backlog")-\(run)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = folder.appendingPathComponent("events.sqlite").path
            if let source { try copyStore(from: source, to: store) }
            samples.append(try ChildProcess.measure(arguments: ["bench", "--startup-probe", store], key: key))
        }
        return Median.of(samples, empty: 0)
    }

    /// Copies the store at `source` and the files beside it (`-wal`, its journal folder, the
    /// redaction key), not its lock, to `destination`.
    static func copyStore(from source: String, to destination: String) throws {
        let manager = FileManager.default
        for suffix in ["", "-wal", ".journal", ".redaction-key"] where manager.fileExists(atPath: source + suffix) {
            try manager.copyItem(atPath: source + suffix, toPath: destination + suffix)
        }
    }
}
