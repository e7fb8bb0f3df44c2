import Foundation
import Testing
import TestSupport

/// `demo live` and `demo inspect` as real child processes: events typed on standard input
/// appear in the inspector's API while the runtime runs, and the read-only inspector of the
/// same store lists them afterwards without changing a file.
@Suite("demo live and demo inspect", .serialized, .runsAlone)
struct DemoInspectorCommandTests {
    static let writeKey = "wk-live-secret-7f3a"

    /// The address the child printed on its `inspector:` line, waiting up to 30 s for it.
    private static func inspectorURL(of child: DemoProcess) async throws -> URL {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let line = child.outputLines.first(where: { $0.hasPrefix("inspector: ") }),
               let url = URL(string: String(line.dropFirst("inspector: ".count).prefix { $0 != " " })) {
                return url
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw NoInspectorLine(printed: child.outputLines, errors: child.standardError)
    }

    /// Polls `url` until its body contains every one of `words`, for up to `timeout` seconds.
    private static func eventually(_ url: URL, contains words: [String], timeout: TimeInterval = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var body = ""
        while Date() < deadline {
            body = try await LoopbackGet.text(url).body
            if words.allSatisfy(body.contains) { return body }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return body
    }

    @Test("live: typed events are listed while it runs, delivered, never with the write key; bad lines are named; inspect lists them read-only")
    func liveThenInspect() async throws {
        let folder = try TemporaryDirectory(prefix: "demo-live")
        defer { folder.remove() }
        let collector = try LoopbackHTTPServer()
        defer { collector.stop() }
        let store = folder.file("live.sqlite").path
        let child = try DemoProcess(["live", "--store", store, "--endpoint", collector.baseURL.appendingPathComponent("v1/batch").absoluteString,
                                     "--write-key", Self.writeKey], input: true)
        let url = try await Self.inspectorURL(of: child)
        #expect(url.host == "127.0.0.1")
        child.write(#"{"category": "Basket", "name": "add_item", "action": "tap", "userData": {"sku": "live-sku-1"}}"# + "\n")
        child.write(#"{"category": "Wishlist", "name": "save", "action": "tap", "userData": {"sku": "live-sku-2"}}"# + "\n")
        child.write(#"{"category": "Garden", "name": "dig", "action": "tap"}"# + "\n")
        child.write("not json\n")
        let events = url.appendingPathComponent("api/events")
        let listed = try await Self.eventually(events, contains: ["add_item", "save", "Wishlist", "\"delivered\""])
        #expect(listed.contains("add_item") && listed.contains("save"), "listed: \(listed.prefix(400))")
        #expect(listed.contains("\"delivered\""), "a delivered status while running: \(listed.prefix(400))")
        #expect(!listed.contains(Self.writeKey))
        let health = try await LoopbackGet.text(url.appendingPathComponent("api/health"))
        #expect(health.status == 200 && !health.body.contains(Self.writeKey))
        child.closeInput()
        let status = await child.wait(timeout: 60)
        #expect(status == 1, "two bad lines end with 1")
        #expect(child.standardError.contains("line 3: unknown category \"Garden\""), "\(child.standardError)")
        #expect(child.standardError.contains("line 4:"), "\(child.standardError)")
        #expect(child.outputLines.last?.hasPrefix("live: 4 lines, 2 not sent (not an event); ") == true, "\(child.outputLines.suffix(2))")
        #expect(!(child.outputLines.joined() + child.standardError).contains(Self.writeKey))

        // The same store, read-only, after the run.
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let inspect = try DemoProcess(["inspect", "--store", store, "--for", "20"])
        defer { inspect.kill() }
        let readOnly = try await Self.inspectorURL(of: inspect)
        let stored = try await Self.eventually(readOnly.appendingPathComponent("api/events"), contains: ["add_item", "save"])
        #expect(stored.contains("add_item") && stored.contains("\"readOnly\":true"), "\(stored.prefix(400))")
        let page = try await LoopbackGet.text(readOnly)
        #expect(page.status == 200 && page.body.lowercased().hasPrefix("<!doctype html>"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before, "inspect wrote no file")
    }

    @Test("usage mistakes exit 2, a missing store exits 1, each with one line naming the problem")
    func mistakes() async throws {
        let folder = try TemporaryDirectory(prefix: "demo-inspect")
        defer { folder.remove() }
        for (arguments, expected, words) in [
            (["inspect"], Int32(2), "needs --store"),
            (["inspect", "--store", folder.file("none.sqlite").path], 1, "none.sqlite"),
            (["inspect", "--store", folder.file("none.sqlite").path, "--port", "70000"], 2, "--port"),
            (["inspect", "--store", folder.file("none.sqlite").path, "--port", "0"], 2, "--port"),
            (["live", "--port", "0"], 2, "--port"),
        ] {
            let child = try DemoProcess(arguments)
            let status = await child.wait(timeout: 60)
            #expect(status == expected, "\(arguments): \(child.standardError)")
            #expect(child.standardError.contains(words), "\(arguments): \(child.standardError)")
        }
    }
}

/// The child printed no `inspector:` line in time.
private struct NoInspectorLine: Error, CustomStringConvertible {
    let printed: [String]
    let errors: String
    var description: String { "no inspector line; printed \(printed), errors \(errors)" }
}
