import Analytics
import Dispatcher
import Foundation
import Onboarding
import Workload

/// The workload Segment's analytics-swift 1.9.4 was measured with on this machine (100,000
/// tracks with 4 properties each, to storage), run through ``Analytics`` the way an app does,
/// for a peak-memory figure beside the peer's.
///
/// It runs in a fresh child process of the demo (`demo bench --peer-workload`), so that the
/// bench's own earlier phases do not raise the high-water mark it reports: the child sends the
/// tracks through `analytics.reporter(for:)` with the command line's default configuration,
/// waits until every one is persisted, and prints its peak resident memory (`VmHWM`).
public enum PeerWorkload {
    /// Tracks sent, as in the peer's measurement.
    static let tracks = 100_000
    /// Segment's analytics-swift 1.9.4 peak resident memory for this workload, in MiB: a quoted
    /// constant, measured on this machine, not by this bench.
    static let peerPeakMegabytes = 39.5
    /// The key of the figure the child prints and the bench reports: this library's peak
    /// resident memory on the peer's workload (the peer's own figure is ``peerPeakMegabytes``).
    public static let key = "peak_rss_mb_peer_workload"

    /// Runs the workload in this process, on a store in `directory`, and returns its peak
    /// resident memory in MiB.
    public static func run(directory: URL) async throws -> Double {
        let storePath = directory.appendingPathComponent("peer.sqlite").path
        let analytics = try Analytics(configuration: .commandLine(storePath: storePath))
        guard await analytics.ready() == .available else { throw BenchError("the peer store did not open: \(analytics.dispatcher.storage)") }
        let app = LoadGenerator(reporter: analytics.reporter(for: OnboardingAnalytics.self))
        for index in 0..<tracks { app.send(index) }
        let drained = await analytics.drain(timeout: 600)
        let persisted = analytics.counters.persisted
        await analytics.close()
        guard drained.persisted, persisted == tracks else {
            throw BenchError("peer workload incomplete: \(persisted) of \(tracks) persisted")
        }
        return ResidentMemory.highWaterMegabytes()
    }

    /// Runs `demo bench --peer-workload` as a child process and returns the peak it printed.
    static func measureInChild() throws -> Double {
        try ChildProcess.measure(arguments: ["bench", "--peer-workload"], key: key)
    }
}
