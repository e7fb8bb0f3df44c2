import Foundation
import Testing
import TestSupport

/// Waiting for a collector must cost no CPU.
@Suite("Reliability: waiting costs no CPU", .serialized, .runsAlone)
struct WaitCostTests {
    /// `demo flush` as a real child process waits through a 3 s `Retry-After` in the way an app
    /// or a command waits for delivery: `drain` until nothing is pending. Neither the library nor
    /// its caller may spin meanwhile (a drain that returns at once again and again is a busy loop
    /// too). The child's CPU is read from `/proc` when the 429 has been answered and again when
    /// the retry arrives, so the figure is the child's alone, whatever else the test process
    /// runs. The bound, 0.3 s for a 3 s wait, leaves room for reading the 429 and the retry's
    /// claim and encoding; a spinning wait costs the whole 3 s.
    @Test("demo flush through a 3 s Retry-After: the wait costs the child under 0.3 s of CPU, then all 10 events are delivered",
          .enabled(if: ChildProcessSample.isAvailable, "reads /proc"))
    func waitingForRetryAfterCostsNoCPU() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-wait-cpu")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try DemoProcess(["generate", "--count", "10", "--store", store])
        #expect(await generate.wait(timeout: 60) == 0, "generate failed: \(generate.standardError)")
        let server = try LoopbackHTTPServer(lifetime: 120)
        defer { server.stop() }
        server.enqueue(.respond(status: 429, headers: ["Retry-After": "3"]))
        let child = try DemoProcess(["flush", "--store", store, "--endpoint", server.baseURL.absoluteString,
                                     "--format", "segment", "--write-key", "cpu-key", "--timeout", "60"])
        let answered = await Self.sample(child, once: server, hasReceived: 1)
        let retried = await Self.sample(child, once: server, hasReceived: 2)
        let status = await child.wait(timeout: 60)
        if status == nil { child.kill() }

        let requests = server.requests
        try #require(requests.count == 2, "requests: \(requests.count); \(child.standardError)")
        let wall = requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt)
        let cpu = (retried?.cpu ?? .infinity) - (answered?.cpu ?? 0)
        print(String(format: "waiting through a 3 s Retry-After: %.3f s of CPU in %.2f s", cpu, wall))
        #expect(wall >= 2.9, "the retry came \(wall) s after the 429")
        #expect(cpu < 0.3, "waiting \(wall) s cost the child \(cpu) s of CPU")
        #expect(status == 0, "exit \(String(describing: status)): \(child.standardError)")
        #expect(child.outputLines.contains { $0.contains("delivered 10") && $0.contains("pending 0") },
                "output: \(child.outputLines)")
    }

    /// Samples `child` as soon as `server` has received `count` requests (polled every 5 ms for
    /// at most 30 s); nil if that never happens or the child has gone.
    static func sample(_ child: DemoProcess, once server: LoopbackHTTPServer, hasReceived count: Int) async -> ChildProcessSample? {
        let deadline = Date().addingTimeInterval(30)
        while server.requestCount < count, Date() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return server.requestCount >= count ? ChildProcessSample(pid: child.pid) : nil
    }
}
