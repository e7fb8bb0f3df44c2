import Foundation
import TestSupport
import Testing

/// The demo's messages say what it knows: a suggestion for a mistyped option, the endpoint a
/// flush delivered to, why requeue refused a store, why two outboxes share no event, the bench
/// key for our memory, and where `generate` sends, all through the real binary.
@Suite("demo command line: messages that say what they know", .serialized, .runsAlone)
struct DemoMessagesTests {
    /// Runs `demo` with `arguments` and returns its status, standard error lines and output lines.
    private func run(_ arguments: [String], timeout: TimeInterval = 60) async throws -> (status: Int32?, errors: [String], output: [String]) {
        let demo = try DemoProcess(arguments)
        let status = await demo.wait(timeout: timeout)
        if status == nil { demo.kill() }
        return (status, demo.standardError.split(separator: "\n").map(String.init), demo.outputLines)
    }

    @Test("An option within edit distance 2 of a known one is suggested, for every command; a far-off one is not")
    func didYouMean() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-typo")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let near: [(arguments: [String], typed: String, meant: String)] = [
            (["generate", "--store", store, "--cout", "5"], "--cout", "--count"),
            (["generate", "--store", store, "--thraeds", "2"], "--thraeds", "--threads"),
            (["generate", "--store", store, "--cnt", "5"], "--cnt", "--count"),
            (["monitor", "--store", store, "--stauts", "all"], "--stauts", "--status"),
            (["flush", "--store", store, "--endpiont", "x.ndjson", "--format", "ndjson"], "--endpiont", "--endpoint"),
            (["requeue", "--stor", store], "--stor", "--store"),
            (["reconcile", "a", "b", "--ignor", "x"], "--ignor", "--ignore"),
            (["bench", "--quik"], "--quik", "--quick"),
            (["--store", store, "--quite"], "--quite", "--quiet"),
            (["generate", "--store", store, "-count", "5"], "-count", "--count"),
        ]
        for (arguments, typed, meant) in near {
            let result = try await run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.errors)")
            #expect(result.errors.count == 1, "\(arguments): one line, got \(result.errors)")
            #expect(result.errors.first?.contains("unknown option '\(typed)'") == true, "\(arguments): \(result.errors)")
            #expect(result.errors.first?.hasSuffix("did you mean \(meant)?") == true, "\(arguments): \(result.errors)")
        }
        // Three edits away, or nothing like any option: no suggestion, the pointer to --help.
        let far: [[String]] = [
            ["generate", "--store", store, "--xxxcount", "5"],
            ["generate", "--store", store, "--verbose"],
            ["monitor", "--store", store, "--frobnicate"],
            ["flush", "--store", store, "--zzz"],
        ]
        for arguments in far {
            let result = try await run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.errors)")
            #expect(result.errors.count == 1 && result.errors.first?.contains("did you mean") == false, "\(arguments): \(result.errors)")
            #expect(result.errors.first?.contains("--help") == true, "\(arguments): \(result.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: store), "a mistyped command did work")
    }

    @Test("flush names the URL it delivered to: scheme, host, port and path, never the key or a user's password")
    func flushNamesItsEndpoint() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-flush-endpoint")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try await run(["generate", "--count", "5", "--store", store])
        #expect(generate.status == 0, "\(generate.errors)")

        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        let withUser = base.replacingOccurrences(of: "http://", with: "http://someone:hunter2@") + "/collector"
        let flush = try await run(["flush", "--store", store, "--endpoint", withUser, "--format", "segment",
                                   "--write-key", "flush-secret-key", "--timeout", "20"])
        #expect(flush.status == 0, "\(flush.errors)")
        let last = try #require(flush.output.last)
        #expect(last.hasPrefix("flush: ") && last.hasSuffix(", to segment \(base)/collector/v1/batch"), "\(last)")
        #expect(server.requests.contains { $0.path == "/collector/v1/batch" }, "the printed URL is the one requested")
        let printed = (flush.output + flush.errors).joined(separator: "\n")
        for secret in ["flush-secret-key", "hunter2", "someone"] { #expect(!printed.contains(secret), "\(secret): \(printed)") }

        let outbox = directory.file("out/outbox.ndjson").path
        let again = try await run(["generate", "--count", "3", "--store", store])
        #expect(again.status == 0, "\(again.errors)")
        let toFile = try await run(["flush", "--store", store, "--endpoint", outbox, "--format", "ndjson", "--timeout", "20"])
        #expect(toFile.status == 0, "\(toFile.errors)")
        #expect(toFile.output.last?.hasSuffix(", to ndjson \(outbox)") == true, "\(toFile.output)")
    }

    @Test("requeue refuses a store with the reason flush and monitor give, and leaves it untouched")
    func requeueGivesTheReason() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-requeue-reason")
        defer { directory.remove() }
        let missing = directory.file("missing.sqlite").path
        let requeue = try await run(["requeue", "--store", missing])
        let monitor = try await run(["monitor", "--store", missing])
        let flush = try await run(["flush", "--store", missing, "--endpoint", directory.file("o.ndjson").path, "--format", "ndjson"])
        #expect(requeue.status == 1 && monitor.status == 1 && flush.status == 1)
        let line = try #require(requeue.errors.first)
        #expect(line.hasPrefix("demo: no store at \(missing): ") && line.count > "demo: no store at \(missing): ".count, "\(line)")
        #expect(requeue.errors == monitor.errors && requeue.errors == flush.errors, "\(requeue.errors) \(monitor.errors) \(flush.errors)")
        #expect(!FileManager.default.fileExists(atPath: missing), "a missing store is not created")

        let folder = try await run(["requeue", "--store", directory.url.path])
        #expect(folder.status == 1 && folder.errors == ["demo: \(directory.url.path) is a folder, not a store file"], "\(folder.errors)")

        let store = directory.file("store.sqlite").path
        let generate = try await run(["generate", "--count", "3", "--store", store])
        #expect(generate.status == 0, "\(generate.errors)")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let readOnly = try await run(["requeue", "--store", store])
        #expect(readOnly.status == 1, "\(readOnly.errors)")
        #expect(readOnly.errors == ["demo: store \(store) is read-only (mode 444); requeue needs to write to it"], "\(readOnly.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the read-only store was not changed")
    }

    @Test("reconcile of two runs' outboxes says they seem to come from different runs, naming each side's run ids and times")
    func reconcileDifferentRuns() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-reconcile-runs")
        defer { directory.remove() }
        for run in ["first", "second"] {
            let journey = try await self.run(["--store", directory.file("\(run)/demo.sqlite").path, "--quiet"])
            #expect(journey.status == 0, "\(journey.errors)")
        }
        let first = directory.file("first/outbox.ndjson").path, second = directory.file("second/outbox.ndjson").path
        let report = try await run(["reconcile", first, second])
        #expect(report.status == 1)
        #expect(report.output.first?.hasPrefix("Reconciliation: 0 matched, ") == true, "\(report.output.prefix(5))")
        #expect(report.output.dropFirst().first == "Hint: no event id in common, so the two files seem to come from different runs:",
                "\(report.output.prefix(5))")
        let hint = report.output.dropFirst(2).prefix(3)
        #expect(hint.contains { $0.hasPrefix("  run ids (context.instanceId) none in common: ours ") }, "\(hint)")
        #expect(hint.contains { $0.hasPrefix("  session ids none in common: ") }, "\(hint)")
        #expect(hint.contains { $0.hasPrefix("  timestamps: ours 20") && $0.contains(", theirs 20") }, "\(hint)")

        // One run against itself, and a run against an empty file: no hint.
        let same = try await run(["reconcile", first, first])
        #expect(same.status == 0 && !same.output.contains { $0.hasPrefix("Hint:") }, "\(same.output.prefix(3))")
        let empty = try directory.write("", to: "empty.ndjson")
        let oneSided = try await run(["reconcile", first, empty.path])
        #expect(oneSided.status == 1 && !oneSided.output.contains { $0.hasPrefix("Hint:") }, "\(oneSided.output.prefix(3))")
    }

    @Test("The bench names our memory on the peer's workload as ours; generate's help says where its events go")
    func helpTexts() async throws {
        let bench = try await run(["bench", "--help"])
        let benchText = bench.output.joined(separator: "\n")
        #expect(bench.status == 0 && benchText.contains("peak_rss_mb_peer_workload"), "\(benchText)")
        #expect(!benchText.contains("peer_peak_rss_mb"), "\(benchText)")

        let generate = try await run(["generate", "--help"])
        let text = generate.output.joined(separator: "\n")
        #expect(generate.status == 0)
        #expect(text.contains("to the Dispatcher of an") && text.contains("directly, past the data-quality"), "\(text)")
        #expect(!text.contains("through the Analytics runtime"), "\(text)")
        #expect(text.contains("--count N") && text.contains("--threads T") && !text.contains("--threads N"), "\(text)")
        #expect(text.contains("Sends N events across the three features from T threads"), "\(text)")
    }
}
