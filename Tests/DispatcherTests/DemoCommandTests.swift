import Foundation
import TestSupport
import Testing

/// The `demo` program as a user runs it: real child processes, real files.
@Suite("demo command line", .serialized, .runsAlone)
struct DemoCommandTests {
    @Test("The journey prints events from all three features, flags, a summary, and exits 0")
    func journeyRuns() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-journey")
        defer { directory.remove() }
        let store = directory.file("demo.sqlite").path
        let demo = try DemoProcess(["--store", store])
        #expect(await demo.wait(timeout: 60) == 0, "demo failed: \(demo.standardError)")
        let output = demo.outputLines.joined(separator: "\n")
        for category in ["[Onboarding]", "[Wishlist]", "[Cart]"] {
            #expect(output.contains(category), "no \(category) event printed")
        }
        #expect(output.contains("value_not_allowed"), "the contract violation is shown")
        #expect(output.contains("duplicate("), "the double tap is flagged")
        #expect(output.contains("summary"))
        let outbox = directory.file("outbox.ndjson")
        let lines = try String(contentsOf: outbox, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 20, "the NDJSON outbox holds the delivered events (\(lines.count))")
    }

    @Test("monitor --format json lists delivered events with flags, context and userData")
    func monitorJSON() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-monitor")
        defer { directory.remove() }
        let store = directory.file("demo.sqlite").path
        let journey = try DemoProcess(["--store", store, "--quiet"])
        #expect(await journey.wait(timeout: 60) == 0, "demo failed: \(journey.standardError)")
        let monitor = try DemoProcess(["monitor", "--store", store, "--format", "json", "--status", "all"])
        #expect(await monitor.wait(timeout: 30) == 0, "monitor failed: \(monitor.standardError)")
        let data = Data(monitor.outputLines.joined(separator: "\n").utf8)
        let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(records.count >= 20)
        for key in ["id", "category", "name", "action", "status", "attempts", "createdAt", "flags", "context", "userData"] {
            #expect(records.allSatisfy { $0[key] != nil }, "every record has \(key)")
        }
        #expect(records.contains { ($0["flags"] as? [String])?.contains { $0.hasPrefix("value_not_allowed") } == true })
        #expect(records.contains { ($0["context"] as? [String: Any])?["session"] != nil || ($0["context"] as? [String: Any])?["sessionId"] != nil })
    }

    @Test("--help lists the subcommands; an unknown option fails with one line on standard error")
    func usage() async throws {
        let help = try DemoProcess(["--help"])
        #expect(await help.wait(timeout: 30) == 0)
        let text = help.outputLines.joined(separator: "\n")
        for word in ["generate", "monitor", "flush", "requeue", "reconcile", "bench"] { #expect(text.contains(word)) }

        let wrong = try DemoProcess(["--no-such-option"])
        let status = await wrong.wait(timeout: 30)
        #expect(status == 2)
        let errorLines = wrong.standardError.split(separator: "\n")
        #expect(errorLines.count == 1 && errorLines[0].contains("--no-such-option"), "got: \(wrong.standardError)")
    }

    @Test("flush exits 0 when nothing is pending and 1 when its time runs out")
    func flushExitStatus() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-flush")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try DemoProcess(["generate", "--count", "300", "--store", store])
        #expect(await generate.wait(timeout: 60) == 0, "generate failed: \(generate.standardError)")

        let stalling = try LoopbackHTTPServer(defaultAction: .stall(seconds: 10))
        defer { stalling.stop() }
        let late = try DemoProcess(["flush", "--store", store, "--endpoint", stalling.baseURL.absoluteString,
                                    "--format", "segment", "--write-key", "k", "--timeout", "2"])
        #expect(await late.wait(timeout: 30) == 1)
        #expect(late.standardError.contains("timed out"), "got: \(late.standardError)")
        #expect(!late.standardError.contains("--write-key k") && !(late.outputLines.joined().contains(" k ")))

        let outbox = directory.file("out.ndjson").path
        let flush = try DemoProcess(["flush", "--store", store, "--endpoint", outbox, "--format", "ndjson", "--timeout", "30"])
        #expect(await flush.wait(timeout: 60) == 0, "flush failed: \(flush.standardError)")
        let lines = try String(contentsOfFile: outbox, encoding: .utf8).split(separator: "\n")
        #expect(Set(lines.compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }).count == 300)
        let again = try DemoProcess(["flush", "--store", store, "--endpoint", outbox, "--format", "ndjson"])
        #expect(await again.wait(timeout: 30) == 0, "nothing pending: exit 0")
    }

    @Test("flush against a collector refusing the credentials (401) exits 1 naming the cause; the events stay pending")
    func flushRefusedCredentials() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-flush-401")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try DemoProcess(["generate", "--count", "40", "--store", store])
        #expect(await generate.wait(timeout: 60) == 0, "generate failed: \(generate.standardError)")

        let refusing = try LoopbackHTTPServer(defaultAction: .respond(status: 401, body: Data("bad key".utf8)))
        defer { refusing.stop() }
        let flush = try DemoProcess(["flush", "--store", store, "--endpoint", refusing.baseURL.absoluteString,
                                     "--format", "segment", "--write-key", "cli-secret-key", "--timeout", "20"])
        #expect(await flush.wait(timeout: 30) == 1, "got: \(flush.standardError)")
        #expect(flush.standardError.contains("HTTP 401") && flush.standardError.contains("credentials"), "got: \(flush.standardError)")
        #expect(flush.standardError.contains("40 events still pending"), "got: \(flush.standardError)")
        let printed = flush.standardError + flush.outputLines.joined(separator: "\n")
        #expect(!printed.contains("cli-secret-key") && !printed.contains(Data("cli-secret-key:".utf8).base64EncodedString()))
        #expect(refusing.requestCount == 1, "paused after the refusal, no more requests")

        let monitor = try DemoProcess(["monitor", "--store", store, "--format", "json", "--status", "pending"])
        #expect(await monitor.wait(timeout: 30) == 0, "monitor failed: \(monitor.standardError)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(monitor.outputLines.joined().utf8)) as? [[String: Any]])
        #expect(rows.count == 40 && rows.allSatisfy { ($0["attempts"] as? Int) == 0 })
    }

    @Test("requeue returns rejected events to pending and prints how many; a later flush delivers them")
    func requeueRejected() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-requeue")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try DemoProcess(["generate", "--count", "30", "--store", store])
        #expect(await generate.wait(timeout: 60) == 0, "generate failed: \(generate.standardError)")

        let refusing = try LoopbackHTTPServer(defaultAction: .respond(status: 400, body: Data(#"{"error":"bad schema"}"#.utf8)))
        defer { refusing.stop() }
        let rejecting = try DemoProcess(["flush", "--store", store, "--endpoint", refusing.baseURL.absoluteString,
                                         "--format", "segment", "--write-key", "k", "--timeout", "20"])
        #expect(await rejecting.wait(timeout: 30) == 0, "got: \(rejecting.standardError)")
        #expect(rejecting.outputLines.joined().contains("rejected 30"), "got: \(rejecting.outputLines)")

        let requeue = try DemoProcess(["requeue", "--store", store])
        #expect(await requeue.wait(timeout: 30) == 0, "requeue failed: \(requeue.standardError)")
        #expect(requeue.outputLines.first?.hasPrefix("requeue: 30 rejected events are pending again") == true,
                "got: \(requeue.outputLines)")

        let accepting = try LoopbackHTTPServer()
        defer { accepting.stop() }
        let delivering = try DemoProcess(["flush", "--store", store, "--endpoint", accepting.baseURL.absoluteString,
                                          "--format", "segment", "--write-key", "k", "--timeout", "20"])
        #expect(await delivering.wait(timeout: 30) == 0, "got: \(delivering.standardError)")
        #expect(Set(segmentMessageIDs(accepting)).count == 30)

        let nothing = try DemoProcess(["requeue", "--store", store])
        #expect(await nothing.wait(timeout: 30) == 0)
        #expect(nothing.outputLines.first?.hasPrefix("requeue: 0 rejected events") == true, "got: \(nothing.outputLines)")

        let missingPath = directory.file("missing.sqlite").path
        let missing = try DemoProcess(["requeue", "--store", missingPath])
        #expect(await missing.wait(timeout: 30) == 1)
        #expect(missing.standardError.contains("no store at"), "got: \(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: missingPath), "a missing store is not created")
        let usage = try DemoProcess(["requeue"])
        #expect(await usage.wait(timeout: 30) == 2)
        #expect(usage.standardError.contains("--store"), "got: \(usage.standardError)")
    }
}

@Suite("demo bench")
struct BenchCommandTests {
    @Test("bench --quick --json prints every figure, each sane")
    func quickBench() async throws {
        let bench = try DemoProcess(["bench", "--quick", "--json"])
        #expect(await bench.wait(timeout: 120) == 0, "bench failed: \(bench.standardError)")
        let data = Data(bench.outputLines.joined(separator: "\n").utf8)
        let figures = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Double])
        let keys = ["send_ns_p50", "send_ns_p99", "ingest_events_per_s", "sqlite_reference_rows_per_s",
                    "delivery_events_per_s", "backlog_events", "baseline_rss_mb", "peak_rss_mb",
                    "bytes_per_event", "reopen_ms", "send_ns_p50_stack", "send_reference_ns_p50", "send_stack_vs_reference", "delivery_vs_reference"]
        for key in keys { #expect(figures[key] != nil, "missing \(key)") }
        // Our memory on the peer's workload is named as ours, not as the peer's.
        #expect(figures.keys.allSatisfy { !$0.hasPrefix("peer_") }, "\(figures.keys.sorted())")
        let value = { (key: String) in figures[key] ?? -1 }
        #expect(value("send_ns_p50") > 0 && value("send_ns_p99") >= value("send_ns_p50"))
        #expect(value("ingest_events_per_s") > 0 && value("sqlite_reference_rows_per_s") > 0 && value("delivery_events_per_s") > 0)
        #expect(abs(value("delivery_vs_reference") - value("delivery_events_per_s") / value("sqlite_reference_rows_per_s")) <= 0.001)
        #expect(value("backlog_events") >= 1_000)
        #expect(value("bytes_per_event") > 16 && value("bytes_per_event") < 10_000, "a stored event has an id and fields")
        #expect(value("reopen_ms") > 0 && value("reopen_ms") < 60_000)
        // Each send over the reference timed beside it: a send does more than the reference.
        #expect(value("send_reference_ns_p50") > 0 && value("send_stack_vs_reference") > 1)
        #expect(value("startup_ms_empty") > 0 && value("startup_ms_backlog") > 0 && value("startup_ms_backlog") < 60_000)
        #if os(Linux)
        #expect(value("baseline_rss_mb") > 0 && value("peak_rss_mb") >= value("baseline_rss_mb"))
        #expect(value("delivery_peak_rss_mb") >= value("delivery_start_rss_mb") && value("delivery_start_rss_mb") > 0)
        // Measured in a child process of its own: its peak is its own, above a process's bare minimum.
        #expect(value("peak_rss_mb_peer_workload") > 1 && value("peak_rss_mb_peer_workload") < 10_000)
        #expect(value("peak_rss_mb_peer_workload_max") >= value("peak_rss_mb_peer_workload"))
        #endif
    }
}
