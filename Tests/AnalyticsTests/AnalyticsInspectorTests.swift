import Analytics
@testable import DataQuality
import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// The runtime with `inspector` set: it serves on 127.0.0.1, records receipts only while
/// someone watches, never serves the write key or a redacted value, survives a port in use,
/// and stops with `close()`.
@Suite("Analytics: the web inspector", .runsAlone)
struct AnalyticsInspectorTests {
    private func detail(_ url: URL, _ id: UUID) async throws -> [String: Any] {
        let answer = try await LoopbackGet.text(url.appendingPathComponent("api/events/\(text(id))"))
        #expect(answer.status == 200, "\(answer.body)")
        return jsonObject(Data(answer.body.utf8))
    }

    @Test("off by default; on: served on 127.0.0.1, receipts per plugin only for events sent while watched")
    func receiptsWhileWatched() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plain = try Analytics(configuration: fastConfiguration(directory, store: "off.sqlite"))
        #expect(plain.inspectorURL == nil)
        await plain.close()

        var configuration = fastConfiguration(directory)
        configuration.inspector = .init()
        let analytics = try Analytics(configuration: configuration, plugins: [ConsoleReporter(stream: TextBuffer())])
        let url = try #require(analytics.inspectorURL)
        #expect(url.host == "127.0.0.1" && url.port != nil && url.port != 0)
        await analytics.ready()
        let reporter = analytics.reporter(for: Shop.self)
        // Nobody has connected yet: nothing is recorded for this one.
        let unwatched = try #require(reporter.send(name: .view, action: .open).first?.eventID)
        #expect(try await LoopbackGet.text(url.appendingPathComponent("api/health")).status == 200)
        let watched = try #require(reporter.send(name: .pay, action: .tap).first?.eventID)
        #expect(await persisted(analytics, 2))
        let plugins = (try await detail(url, watched)["receipts"] as? [[String: Any]] ?? []).compactMap { $0["plugin"] as? String }
        #expect(plugins == ["console", "dispatcher"], "\(plugins)")
        #expect((try await detail(url, unwatched)["receipts"] as? [Any])?.isEmpty == true)
        await analytics.close()
    }

    @Test("neither the write key nor a redacted value is served, in the list, a detail or health")
    func noSecrets() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.inspector = .init()
        let analytics = try Analytics(configuration: configuration)
        let url = try #require(analytics.inspectorURL)
        await analytics.ready()
        let secret = "alice.inspector@example.com"
        let id = try #require(analytics.reporter(for: Shop.self)
            .send(name: .signup, action: .tap, userData: ["email": .string(secret), "profile": .object(["phone": .string("+44 7700 900123")])])
            .first?.eventID)
        _ = await analytics.drain(timeout: 10)
        var served = [try await LoopbackGet.text(url).body]
        for path in ["api/events", "api/health", "api/events/\(text(id))"] {
            served.append(try await LoopbackGet.text(url.appendingPathComponent(path)).body)
        }
        let all = served.joined(separator: "\n")
        #expect(all.contains(text(id)), "the event is listed")
        #expect(!all.contains(secret) && !all.contains("7700 900123"), "a redacted value was served")
        #expect(!all.contains(testWriteKey), "the write key was served")
        await analytics.close()
    }

    @Test("a port in use: no inspector, a diagnostic naming it, the runtime still stores; close() frees the port")
    func portInUse() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var first = fastConfiguration(directory, store: "first.sqlite")
        first.inspector = .init()
        let holder = try Analytics(configuration: first)
        let port = try #require(holder.inspectorURL?.port)
        var second = fastConfiguration(directory, store: "second.sqlite")
        second.inspector = .init(port: port)
        let analytics = try Analytics(configuration: second)
        #expect(analytics.inspectorURL == nil)
        let issue = analytics.diagnostics.snapshot().recentIssues.first { $0.code == "inspector" }
        #expect(issue?.message.contains("\(port)") == true, "\(String(describing: issue))")
        analytics.reporter(for: Shop.self).send(name: .view, action: .open)
        #expect(await persisted(analytics, 1))
        await analytics.close()
        await holder.close()
        // Freed by close(): the port can be served again.
        let again = try Analytics(configuration: second)
        #expect(again.inspectorURL?.port == port)
        await again.close()
    }
}
