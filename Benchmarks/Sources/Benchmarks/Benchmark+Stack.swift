import Foundation
import Tracking
import Workload

extension Benchmark {
    /// The full-stack send cost alone, with its stage breakdown (`demo bench --stack-only`): the
    /// figures of ``run()``'s phase 5 that `send_ns_p50_stack` names, without the other phases,
    /// for iterating on the send path.
    /// - Throws: ``BenchError`` when the phase did not complete.
    public func runStackSendCost() async throws -> BenchResult {
        var result = BenchResult()
        _ = try await addStackSendCost(to: &result, load: LoadGenerator(plugins: []))
        return result
    }

    /// 5. Send cost on the path an app runs, every data-quality stage on: adds
    /// `send_ns_p50_stack`, its p99, the store's bytes per event and each stage's cost; returns
    /// the distinct userData sent, for the phases after it. The events satisfy a contract that
    /// describes them and each is distinct, as in an app whose contract matches its code.
    func addStackSendCost(to result: inout BenchResult, load: LoadGenerator) async throws -> [UserData] {
        progress?("full stack send cost")
        let stackSends = min(sends, 100_000)
        let breakdownSends = min(sends, 20_000)
        let distinct = (0..<stackSends).map { load.distinctUserData(for: $0) }
        let stack = try await StackPhase(contractJSON: BenchContract.json, userData: distinct,
                                         breakdownRounds: breakdownSends, directory: directory).run(name: "stack")
        result.add("send_ns_p50_stack", Double(stack.latencies[stack.latencies.count / 2]), unit: "ns", target: "≤ 1000")
        result.add("send_ns_p99_stack", Double(stack.latencies[stack.latencies.count * 99 / 100]), unit: "ns", target: "≤ 3000")
        // The same sends beside a plain-Swift reference timed before each (see SendReference).
        result.add("send_reference_ns_p50", Double(stack.referenceMedian), unit: "ns", target: "(reference, same loop)")
        result.add("send_stack_vs_reference", (stack.referenceRatio * 100).rounded() / 100, unit: "×",
                   target: "(p50 of each send over its reference)")
        result.add("bytes_per_event_stack", stack.bytesPerEvent, unit: "B", target: "≤ 300")
        for stage in stack.stages {
            result.add("stage_ns_\(stage.name)", Double(stage.nanosecondsP50), unit: "ns", target: "(p50)")
        }
        return distinct
    }
}
