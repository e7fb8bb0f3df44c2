import Foundation
import TestSupport
import Testing

/// The `demo` command line as a user types it: stray arguments, exit statuses, help, messages,
/// id case and progress, all through the real binary.
@Suite("demo command line: usage", .serialized, .runsAlone)
struct DemoCommandLineTests {
    /// Runs `demo` with `arguments` and returns its status, standard error lines and output lines.
    private func run(_ arguments: [String], timeout: TimeInterval = 60) async throws -> (status: Int32?, errors: [String], output: [String]) {
        let demo = try DemoProcess(arguments)
        let status = await demo.wait(timeout: timeout)
        if status == nil { demo.kill() }
        return (status, demo.standardError.split(separator: "\n").map(String.init), demo.outputLines)
    }

    @Test("A file:// endpoint naming another host is a usage error (exit 2) and nothing is written")
    func fileEndpointWithAHost() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-file-host")
        defer { directory.remove() }
        let target = directory.file("out.ndjson").path
        let store = directory.file("store.sqlite").path
        let generate = try await run(["generate", "--count", "5", "--store", store])
        #expect(generate.status == 0, "\(generate.errors)")

        let flush = try await run(["flush", "--store", store, "--endpoint", "file://somehost" + target, "--format", "ndjson", "--timeout", "5"])
        #expect(flush.status == 2, "\(flush.errors)")
        #expect(flush.errors.count == 1 && flush.errors[0].contains("somehost"), "\(flush.errors)")
        let journey = try await run(["--store", directory.file("journey.sqlite").path, "--quiet",
                                     "--endpoint", "file://somehost" + target, "--format", "ndjson"])
        #expect(journey.status == 2, "\(journey.errors)")
        #expect(journey.errors.count == 1 && journey.errors[0].contains("somehost"), "\(journey.errors)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing written to the bare path")

        let local = try await run(["flush", "--store", store, "--endpoint", "file://localhost" + target, "--format", "ndjson", "--timeout", "30"])
        #expect(local.status == 0, "\(local.errors)")
        #expect(FileManager.default.fileExists(atPath: target), "file://localhost is this machine")
    }

    @Test("A stray argument, a single-dash option or an unknown option is a usage error: exit 2, one line naming it, nothing done")
    func strayArguments() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-stray")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let cases: [(arguments: [String], named: String)] = [
            (["generate", "--store", store, "5"], "'5'"),
            (["generate", "--store", store, "-count", "5"], "-count"),
            (["generate", "--store", store, "--print-ids=yes"], "--print-ids"),
            (["generate", "--store", store, "--count", "5", "--count", "6"], "--count"),
            (["monitor", "--store", store, "extra"], "'extra'"),
            (["monitor", "--store", store, "-f", "json"], "-f"),
            (["flush", "--store", store, "now"], "'now'"),
            (["requeue", "--store", store, "--all"], "--all"),
            (["requeue", "--store", store, "now"], "'now'"),
            (["reconcile", "a.ndjson", "b.ndjson", "c.ndjson"], "'c.ndjson'"),
            (["bench", "--quick", "-j"], "-j"),
            (["bench", "--quick", "fast"], "'fast'"),
            (["--store", store, "-quiet"], "-quiet"),
            (["--store", store, "--quiet", "please"], "please"),
        ]
        for (arguments, named) in cases {
            let result = try await run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.errors)")
            #expect(result.errors.count == 1 && result.errors.first?.contains(named) == true, "\(arguments): \(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: store), "\(arguments) did work")
        }
    }

    @Test("Usage errors exit 2 and runtime failures exit 1, the same for every format and command")
    func exitStatusMatrix() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-exit")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let missing = directory.file("missing.sqlite").path
        let generate = try await run(["generate", "--count", "3", "--store", store])
        #expect(generate.status == 0, "\(generate.errors)")
        let journeyStore = directory.file("journey.sqlite").path
        var usage: [[String]] = []
        for format in ["segment", "snowplow", "ndjson"] {
            usage.append(["flush", "--store", store, "--endpoint", "ftp://example.com/x", "--format", format, "--write-key", "k"])
            usage.append(["--store", journeyStore, "--quiet", "--endpoint", "ftp://example.com/x", "--format", format, "--write-key", "k"])
        }
        usage += [
            ["flush", "--store", store, "--endpoint", "http://example.com", "--format", "segment", "--write-key", "k"],
            ["flush", "--store", store, "--endpoint", "https://example.com", "--format", "bogus"],
            ["flush", "--store", missing, "--endpoint", "https://example.com", "--format", "bogus"],
            ["flush", "--store", store, "--endpoint", "https://example.com", "--format", "segment", "--write-key", "k", "--timeout", "0"],
            ["flush", "--store", store, "--endpoint", "https://example.com", "--format", "segment"],
            ["flush", "--store", store, "--format", "segment"],
            ["--store", journeyStore, "--quiet", "--format", "bogus"],
            ["--store", journeyStore, "--quiet", "--format", "ndjson"],
            ["--store", journeyStore, "--quiet", "--write-key", ""],
            ["generate", "--store", store, "--timeout", "0"],
            ["generate", "--store", store, "--count", "many"],
            ["monitor", "--store", store, "--format", "xml"],
            ["monitor", "--store", missing, "--order", "sideways"],
            ["reconcile", "a.ndjson"],
            ["reconcile", "a.ndjson", "b.ndjson", "--ignore", ","],
            ["nonsense"],
        ]
        for arguments in usage {
            let result = try await run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.errors)")
            #expect(result.errors.count == 1, "\(arguments): one line, got \(result.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: journeyStore), "a journey with a usage mistake ran")

        let runtime: [[String]] = [
            ["flush", "--store", missing, "--endpoint", directory.file("out.ndjson").path, "--format", "ndjson"],
            ["monitor", "--store", missing],
            ["requeue", "--store", missing],
            ["reconcile", missing, missing],
        ]
        for arguments in runtime {
            let result = try await run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.errors)")
        }
    }

    @Test("--timeout 0 states the real range")
    func timeoutMessage() async throws {
        for command in [["generate", "--store", "/nonexistent/s.sqlite"], ["flush", "--store", "s", "--endpoint", "o.ndjson", "--format", "ndjson"]] {
            let result = try await run(command + ["--timeout", "0"])
            #expect(result.status == 2)
            #expect(result.errors.first?.contains("--timeout must be more than 0 and at most 86400 seconds, got '0'") == true, "\(result.errors)")
        }
    }

    /// The `--name` words in a help text.
    private func optionNames(_ text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0 == "-" }
            if !name.isEmpty, name.first?.isLetter == true { names.insert(String(name)) }
            rest = rest[range.upperBound...]
        }
        return names
    }

    @Test("Each subcommand's --help lists exactly the options it parses; demo --help gives the overview")
    func helpPerSubcommand() async throws {
        let expected: [String: Set<String>] = [
            "generate": ["store", "count", "threads", "interval", "timeout", "print-ids", "progress", "drain-on-signal", "drain-timeout", "help"],
            "monitor": ["store", "format", "status", "sort", "order", "limit", "help"],
            "flush": ["store", "endpoint", "format", "write-key", "timeout", "progress", "help"],
            "requeue": ["store", "help"],
            "reconcile": ["ignore", "help"],
            "bench": ["quick", "json", "backlog", "sends", "progress", "stack-only", "peer-workload", "startup-probe", "idle-probe", "idle-floor-probe", "idle-window", "idle-await", "help"],
        ]
        var texts: Set<String> = []
        for (command, names) in expected {
            for flag in ["--help", "-h"] {
                let help = try await run([command, flag])
                #expect(help.status == 0, "\(command) \(flag): \(help.errors)")
                let text = help.output.joined(separator: "\n")
                #expect(text.contains("demo \(command)"), "\(command): \(text)")
                #expect(optionNames(text) == names, "\(command) --help lists \(optionNames(text).sorted()), parses \(names.sorted())")
                texts.insert(text)
            }
            // Every option the help lists is one the command parses: given with a stray argument
            // after it, the complaint is about the stray, not the option.
            for name in names.subtracting(["help"]) {
                let takesValue = !["print-ids", "progress", "drain-on-signal", "quick", "json", "stack-only", "peer-workload", "idle-floor-probe", "idle-await"].contains(name)
                var arguments = [command, "--\(name)"] + (takesValue ? ["v"] : [])
                arguments += command == "reconcile" ? ["a", "b", "STRAY"] : ["STRAY"]
                let result = try await run(arguments)
                #expect(result.status == 2 && result.errors.first?.contains("STRAY") == true, "\(arguments): \(result.errors)")
            }
        }
        #expect(texts.count == expected.count, "each subcommand has its own help")

        let overview = try await run(["--help"])
        #expect(overview.status == 0)
        let text = overview.output.joined(separator: "\n")
        for command in expected.keys { #expect(text.contains(command)) }
        #expect(optionNames(text) == ["store", "endpoint", "format", "write-key", "config", "quiet", "help"], "\(optionNames(text).sorted())")
    }

    @Test("monitor --journey is refused: the option did nothing and is gone")
    func monitorJourneyRemoved() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-journey-option")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try await run(["generate", "--count", "3", "--store", store])
        #expect(generate.status == 0, "\(generate.errors)")
        let result = try await run(["monitor", "--store", store, "--journey"])
        #expect(result.status == 2, "\(result.errors)")
        #expect(result.errors.count == 1 && result.errors[0].contains("unknown option '--journey'"), "\(result.errors)")
    }

    @Test("reconcile says a file is missing or a directory; an invalid --config names the line and column")
    func readableMessages() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-messages")
        defer { directory.remove() }
        let file = directory.file("a.ndjson")
        try Data("{\"id\":\"x\"}\n".utf8).write(to: file)
        let missing = directory.file("absent.ndjson").path
        let absent = try await run(["reconcile", file.path, missing])
        #expect(absent.status == 1)
        #expect(absent.errors == ["demo: no such file: \(missing)"], "\(absent.errors)")
        let folder = try await run(["reconcile", directory.url.path, file.path])
        #expect(folder.status == 1)
        #expect(folder.errors.count == 1 && folder.errors[0].contains("is a directory"), "\(folder.errors)")
        #expect(!folder.errors.joined().contains("NSCocoaErrorDomain"), "\(folder.errors)")

        let config = directory.file("tracking.json")
        try Data("{\n  \"endpoint\": \"https://c.example.com\",\n  appId: \"x\"\n}\n".utf8).write(to: config)
        let journey = try await run(["--store", directory.file("j.sqlite").path, "--quiet", "--config", config.path])
        #expect(journey.status == 1)
        #expect(journey.errors.count == 1 && journey.errors[0].contains("line 3, column 3"), "\(journey.errors)")
    }

    @Test("Event ids are printed in lowercase everywhere: --print-ids, monitor json, csv and table")
    func lowercaseIDs() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-ids")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try await run(["generate", "--count", "12", "--store", store, "--print-ids"])
        #expect(generate.status == 0, "\(generate.errors)")
        let printed = generate.output.filter { !$0.isEmpty }
        #expect(printed.count == 12 && printed.allSatisfy { $0 == $0.lowercased() && UUID(uuidString: $0) != nil }, "\(printed)")

        let json = try await run(["monitor", "--store", store, "--format", "json"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.output.joined(separator: "\n").utf8)) as? [[String: Any]])
        #expect(Set(records.compactMap { $0["id"] as? String }) == Set(printed))
        let csv = try await run(["monitor", "--store", store, "--format", "csv"])
        #expect(Set(csv.output.dropFirst().compactMap { $0.split(separator: ",").first.map(String.init) }) == Set(printed))
        let table = try await run(["monitor", "--store", store])
        let suffixes = Set(printed.map { String($0.suffix(12)) })
        #expect(table.output.dropFirst().prefix(12).allSatisfy { suffixes.contains(String($0.prefix(12))) }, "\(table.output)")
    }

    @Test("--progress reports on standard error once a long command passes 2 s; without it, a pipe gets none")
    func progress() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-progress")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try await run(["generate", "--count", "50", "--store", store])
        #expect(generate.status == 0, "\(generate.errors)")

        // The collector stalls: the flush runs until its 5 s timeout.
        let stalling = try LoopbackHTTPServer(defaultAction: .stall(seconds: 10))
        defer { stalling.stop() }
        let arguments = ["flush", "--store", store, "--endpoint", stalling.baseURL.absoluteString,
                         "--format", "segment", "--write-key", "k", "--timeout", "5"]
        let shown = try await run(arguments + ["--progress"])
        #expect(shown.status == 1)
        let lines = shown.errors.filter { $0.hasPrefix("flush: progress: ") }
        #expect(lines.count >= 2 && lines.count <= 8, "about one a second after 2 s: \(shown.errors)")
        #expect(lines.first?.contains("0/50 delivered") == true, "\(lines)")
        let quiet = try await run(arguments)
        #expect(quiet.status == 1)
        #expect(!quiet.errors.contains { $0.contains("progress") }, "\(quiet.errors)")

        // generate: a run long enough to pass 2 s reports; a short one does not.
        let started = Date()
        let long = try await run(["generate", "--count", "100000", "--store", directory.file("long.sqlite").path, "--progress"], timeout: 180)
        let elapsed = Date().timeIntervalSince(started)
        #expect(long.status == 0, "\(long.errors.suffix(3))")
        let progressLines = long.errors.filter { $0.hasPrefix("generate: progress: ") }
        if elapsed > 3.5 {
            #expect(!progressLines.isEmpty, "\(elapsed) s without progress")
            #expect(progressLines.count <= Int(elapsed) + 1, "at most one a second: \(progressLines.count) in \(elapsed) s")
        }
        let short = try await run(["generate", "--count", "10", "--store", directory.file("short.sqlite").path, "--progress"])
        #expect(short.status == 0 && !short.errors.contains { $0.contains("progress") }, "\(short.errors)")
    }

    @Test("A flush waiting for a retry says how long it waits, every time it waits")
    func flushSaysHowLongItWaits() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-wait")
        defer { directory.remove() }
        let store = directory.file("store.sqlite").path
        let generate = try await run(["generate", "--count", "20", "--store", store])
        #expect(generate.status == 0, "\(generate.errors)")

        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.enqueue(.respond(status: 503, headers: ["Retry-After": "2"]), .ok)
        let started = Date()
        let flush = try await run(["flush", "--store", store, "--endpoint", server.baseURL.absoluteString,
                                   "--format", "segment", "--write-key", "k", "--timeout", "30"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(flush.status == 0, "\(flush.errors)")
        let waits = flush.errors.compactMap { line -> Double? in
            guard line.hasPrefix("flush: waiting "), line.contains(" s before the next attempt") else { return nil }
            return Double(line.dropFirst("flush: waiting ".count).prefix { $0.isNumber || $0 == "." })
        }
        #expect(!waits.isEmpty, "\(flush.errors)")
        // Every second spent waiting was announced: the announced waits cover the run's idle time.
        #expect(waits.reduce(0, +) >= 1.5 && waits.reduce(0, +) <= elapsed + 0.5, "waits \(waits) in \(elapsed) s: \(flush.errors)")
    }
}
