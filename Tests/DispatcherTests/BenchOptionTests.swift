import Foundation
import TestSupport
import Testing

/// `demo bench` checks every option given: a probe's window is refused where no probe runs, and
/// two different runs asked at once are a usage mistake, not one of them silently dropped.
@Suite("demo bench: options that do not go together", .runsAlone)
struct BenchOptionTests {
    @Test("Two runs at once, a bad window, or a window with no probe: exit 2, one line naming the options, nothing measured")
    func conflictingOptions() async throws {
        let cases: [(arguments: [String], says: String)] = [
            (["bench", "--idle-probe", "http://127.0.0.1:9/v1/batch", "--idle-floor-probe"], "--idle-probe and --idle-floor-probe"),
            (["bench", "--peer-workload", "--stack-only"], "--stack-only and --peer-workload"),
            (["bench", "--stack-only", "--startup-probe", "x.sqlite"], "--stack-only and --startup-probe"),
            (["bench", "--quick", "--idle-window", "5"], "--idle-window applies to"),
            (["bench", "--quick", "--idle-window", "abc"], "idle-window"),
            (["bench", "--idle-floor-probe", "--idle-await"], "--idle-await applies to"),
            (["bench", "--idle-probe", "http://127.0.0.1:9/v1/batch", "--idle-window", "-1"], "idle-window"),
        ]
        for (arguments, says) in cases {
            let demo = try DemoProcess(arguments)
            let status = await demo.wait(timeout: 60)
            if status == nil { demo.kill() }
            let errors = demo.standardError.split(separator: "\n")
            #expect(status == 2, "\(arguments): \(demo.standardError)")
            #expect(errors.count == 1 && errors.first?.contains(says) == true, "\(arguments): \(demo.standardError)")
            #expect(demo.outputLines.isEmpty, "\(arguments) measured something: \(demo.outputLines)")
        }
    }
}
