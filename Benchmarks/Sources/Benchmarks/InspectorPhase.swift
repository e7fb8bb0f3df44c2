import Analytics
import Foundation
import Onboarding
import Tracking
import Workload

/// The web inspector's cost on the send path (`inspector_overhead_pct`): two full stacks in one
/// process, the inspector off in one and on in the other (nobody connected), each event sent
/// through both in turn, which goes first alternating. Both are timed at the same moments, so a
/// change of the machine's speed falls on both alike.
struct InspectorPhase {
    /// The contract both stacks validate against.
    let contractJSON: String
    /// The userData of each event, made beforehand.
    let userData: [UserData]
    /// The folder the stores and contracts go in.
    let directory: URL

    /// What one run measured.
    struct Figures {
        /// The median send, inspector off.
        let offMedian: UInt64
        /// The median send, inspector on.
        let onMedian: UInt64
        /// The median of each event's send with the inspector on over its send with it off.
        let ratio: Double
    }

    /// Sends every `userData` through both stacks, then drains and closes them.
    /// - Throws: ``BenchError`` when a stack is not complete or an event did not reach its store.
    func run() async throws -> Figures {
        let (off, _) = try await StackPhase(contractJSON: contractJSON, userData: [], directory: directory).start(name: "inspector-off")
        let (on, _) = try await StackPhase(contractJSON: contractJSON, userData: [], directory: directory, inspector: true)
            .start(name: "inspector-on")
        let apps = [off, on].map { LoadGenerator(reporter: $0.reporter(for: OnboardingAnalytics.self)) }
        var times = [[UInt64]](repeating: [UInt64](repeating: 0, count: userData.count), count: 2)
        for index in userData.indices {
            let first = index % 2
            for side in [first, 1 - first] {
                let start = DispatchTime.now().uptimeNanoseconds
                apps[side].send(index, userData: userData[index])
                times[side][index] = DispatchTime.now().uptimeNanoseconds - start
            }
        }
        try await StackPhase.finish(off, sent: userData.count)
        try await StackPhase.finish(on, sent: userData.count)
        return Figures(offMedian: Median.of(times[0], empty: 0), onMedian: Median.of(times[1], empty: 0),
                       ratio: Median.ratio(of: times[1], over: times[0]))
    }
}
