import Foundation
import Testing
import TestSupport

/// `demo flush` as a real child process against a collector on 127.0.0.1 that misbehaves in
/// every way: the child's CPU and resident memory are read from `/proc` while it waits, so the
/// figures are the child's alone, whatever else the test process runs.
@Suite("Demo: a hostile collector costs nothing", .serialized, .runsAlone)
struct HostileCollectorDemoTests {
    /// The forms, each named for the report.
    static let forms: [(String, HostileCollector.Behaviour)] = [
        ("a 200 with a 200 MB body", .hugeBody(bytes: 200_000_000)),
        ("an endless chunked body at 20 MB/s", .endlessBody(bytesPerSecond: 20_000_000)),
        ("a trickle of one byte a second", .trickle(interval: 1)),
        ("accepting and never reading", .neverRead),
        ("headers, then a stall", .headersThenStall),
    ]
    static let events = 300
    /// The flush's own limit, and when the wait is measured (seconds after the child started).
    static let flushTimeout = 14.0
    static let window = (from: 2.0, to: 13.0)

    /// What one flush cost while it waited, and how it ended.
    struct Run {
        var name: String
        var cpu: Double
        var window: Double
        var peakMegabytes: Double
        var status: Int32?
        var standardError: String
        var served: Int
    }

    /// Runs `demo flush` on a fresh store of ``events`` events against `behaviour`.
    static func flush(_ name: String, _ behaviour: HostileCollector.Behaviour, in directory: TemporaryDirectory) async throws -> Run {
        let store = directory.file("\(name.filter(\.isLetter)).sqlite").path
        let generate = try DemoProcess(["generate", "--count", "\(events)", "--store", store])
        #expect(await generate.wait(timeout: 60) == 0, "generate failed: \(generate.standardError)")
        let collector = try HostileCollector(behaviour, lifetime: 40)
        defer { collector.stop() }
        let child = try DemoProcess(["flush", "--store", store, "--endpoint", collector.baseURL.absoluteString,
                                     "--format", "segment", "--write-key", "k", "--timeout", "\(Int(flushTimeout))"])
        let started = Date()
        try await Task.sleep(nanoseconds: UInt64(window.from * 1e9))
        let first = ChildProcessSample(pid: child.pid)
        try await Task.sleep(nanoseconds: UInt64(max(0, window.to - Date().timeIntervalSince(started)) * 1e9))
        let last = ChildProcessSample(pid: child.pid)
        let window = Date().timeIntervalSince(started) - window.from
        let status = await child.wait(timeout: 30)
        if status == nil { child.kill() }
        return Run(name: name, cpu: (last?.cpu ?? .infinity) - (first?.cpu ?? 0), window: window,
                   peakMegabytes: last?.peakMegabytes ?? .infinity, status: status, standardError: child.standardError,
                   served: collector.connectionCount)
    }

    @Test("huge body, endless body, trickle, never reading, stall: under 50 MB over baseline, no more CPU than a 503 on the same rounds plus 0.3 s a minute, every event pending, exit 1",
          .enabled(if: ChildProcessSample.isAvailable, "reads /proc"))
    func everyForm() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-demo")
        defer { directory.remove() }
        // The baseline: the same flush against a collector answering 503 at once.
        let runs = try await withThrowingTaskGroup(of: Run.self) { group in
            group.addTask { try await Self.flush("baseline", .respond(status: 503, body: Data()), in: directory) }
            for (name, behaviour) in Self.forms {
                group.addTask { try await Self.flush(name, behaviour, in: directory) }
            }
            return try await group.reduce(into: [Run]()) { $0.append($1) }
        }
        let baseline = try #require(runs.first { $0.name == "baseline" })
        #expect(baseline.status == 1 && baseline.peakMegabytes < 200, "baseline: \(baseline.standardError)")
        print(String(format: "hostile collector, baseline (503 at once): %.3f s CPU in %.1f s, %d connections", baseline.cpu, baseline.window, baseline.served))
        for run in runs where run.name != "baseline" {
            let perMinute = run.cpu / run.window * 60
            print(String(format: "hostile collector, %@: %.3f s CPU in %.1f s (%.2f s a minute), peak %.1f MB (baseline %.1f MB), %d connections",
                         run.name, run.cpu, run.window, perMinute, run.peakMegabytes, baseline.peakMegabytes, run.served))
            #expect(run.served >= 1, "\(run.name): the collector was never reached")
            // A cut-short 200 is retried on the backoff schedule of the 503, never sooner.
            #expect(run.served <= baseline.served + 2, "\(run.name): \(run.served) connections, baseline \(baseline.served)")
            // What the rounds themselves cost (claim, encode, connect) is the baseline's cost a
            // round on this machine, in this run; the hostile collector may add 0.3 s a minute of
            // waiting above it, plus two ticks of the kernel's CPU accounting (10 ms each).
            let roundsCost = baseline.cpu / Double(max(1, baseline.served)) * Double(run.served) * 1.5
            #expect(run.cpu <= roundsCost + 0.3 * run.window / 60 + 0.021,
                    "\(run.name): \(run.cpu) s of CPU in \(run.window) s of waiting, \(run.served) rounds; baseline \(baseline.cpu) s, \(baseline.served) rounds")
            #expect(run.peakMegabytes - baseline.peakMegabytes <= 50,
                    "\(run.name): peak \(run.peakMegabytes) MB, baseline \(baseline.peakMegabytes) MB")
            #expect(run.status == 1, "\(run.name): exit \(String(describing: run.status)): \(run.standardError)")
            #expect(run.standardError.contains("with \(Self.events) events still pending (delivered 0, rejected 0)"),
                    "\(run.name): \(run.standardError)")
        }
    }

    @Test("a 500 whose body forges a summary line and hides what follows: flush prints it escaped, no control character")
    func forgedLine() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-demo-text")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try DemoProcess(["generate", "--count", "20", "--store", store])
        #expect(await generate.wait(timeout: 60) == 0, "generate failed: \(generate.standardError)")
        let forgery = "\u{1B}[2K\r\u{1B}[1Aflush: sent 0, delivered 500 … all good\n\u{1B}[8m"
        let collector = try HostileCollector(.respond(status: 500, body: Data(forgery.utf8)), lifetime: 30)
        defer { collector.stop() }
        let flush = try DemoProcess(["flush", "--store", store, "--endpoint", collector.baseURL.absoluteString,
                                     "--format", "segment", "--write-key", "k", "--timeout", "3"])
        #expect(await flush.wait(timeout: 30) == 1, "got: \(flush.standardError)")
        let printed = flush.standardError + flush.outputLines.joined(separator: "\n")
        #expect(printed.contains("HTTP 500: \\u{1B}[2K\\r\\u{1B}[1Aflush: sent 0, delivered 500 … all good\\n\\u{1B}[8m"), "got: \(printed)")
        #expect(!printed.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x0D }, "a control character reached the terminal")
        #expect(!printed.split(separator: "\n").contains { $0.hasPrefix("flush: sent 0, delivered 500") }, "a line was forged")
    }
}
