@testable import Analytics
import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// On a platform that suspends apps, entering the background releases the storage (no file lock
/// held while suspended) inside background time, after the drain; the foreground takes it back.
@Suite("Analytics: the storage is released for suspension and taken back", .serialized, .runsAlone)
struct SuspensionLifecycleTests {
    private static let background = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    private static let foreground = Notification.Name("UIApplicationWillEnterForegroundNotification")

    /// Whether another open of the store's lock file could take it now (nobody holds it).
    private func lockIsFree(_ storePath: String) -> Bool {
        let descriptor = open(storePath + ".lock", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        _ = flock(descriptor, LOCK_UN)
        return true
    }

    @Test("background: drained, then no lock held and the time given back once; foreground: the store is back and what was sent meanwhile is delivered")
    func releasedInTheBackgroundTakenBackInTheForeground() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-suspension")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let time = FakeBackgroundTime()
        let platform = fakePlatform(backgroundTime: time, suspends: true)
        let (analytics, first) = try await startObserving(directory, server, platform: platform, strategies: [.didEnterBackground])
        let storePath = analytics.dispatcher.configuration.storePath
        #expect(!lockIsFree(storePath), "the running store holds its lock")

        platform.notifications.post(name: Self.background, object: nil)
        let grant = try #require(time.grants.first)
        #expect(await eventually(timeout: 30) { grant.endCount == 1 })
        #expect(segmentMessageIDs(server) == [first.uuidString.lowercased()], "drained before the release")
        #expect(analytics.dispatcher.storage != .available)
        #expect(lockIsFree(storePath), "no file lock is held while suspended")

        let second = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        platform.notifications.post(name: Self.foreground, object: nil)
        #expect(await eventually(timeout: 30) { analytics.dispatcher.storage == .available })
        #expect(!lockIsFree(storePath), "the lock is taken back in the foreground")
        _ = await analytics.drain(timeout: 10).report
        #expect(segmentMessageIDs(server).sorted() == [first, second].map { $0.uuidString.lowercased() }.sorted())
        #expect(grant.endCount == 1)
        await analytics.close()
    }

    @Test("where apps are not suspended (macOS, Linux) the storage stays open in the background")
    func keptWhereNotSuspended() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-no-suspension")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let time = FakeBackgroundTime()
        let platform = fakePlatform(backgroundTime: time, suspends: false)
        let (analytics, _) = try await startObserving(directory, server, platform: platform, strategies: [.didEnterBackground])
        platform.notifications.post(name: Self.background, object: nil)
        let grant = try #require(time.grants.first)
        #expect(await eventually(timeout: 30) { grant.endCount == 1 })
        #expect(analytics.dispatcher.storage == .available)
        #expect(!lockIsFree(analytics.dispatcher.configuration.storePath))
        await analytics.close()
    }

    @Test("a foreground that comes while the release still runs takes the storage back after it, never before")
    func quickReturnIsOrdered() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-suspension-order")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(defaultAction: .stall(seconds: 0.5))
        defer { server.stop() }
        let time = FakeBackgroundTime()
        let platform = fakePlatform(backgroundTime: time, suspends: true)
        let (analytics, _) = try await startObserving(directory, server, platform: platform, strategies: [.didEnterBackground])
        platform.notifications.post(name: Self.background, object: nil)
        platform.notifications.post(name: Self.foreground, object: nil)
        let grant = try #require(time.grants.first)
        // The grant is given back once the release is done; the foreground's step comes after it.
        #expect(await eventually(timeout: 30) { grant.endCount == 1 })
        #expect(server.requestCount >= 1, "the drain ran before the release")
        let back = await eventually(timeout: 30) { analytics.dispatcher.storage == .available }
        #expect(back, "\(analytics.dispatcher.storage); \(analytics.diagnostics.snapshot())")
        await analytics.close()
    }
}
