@testable import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A start before the device's first unlock (iOS: the store's files cannot be read), played on
/// Linux through the `ProtectedData` seam and a store folder that is a regular file until "the
/// unlock": the runtime starts, holds every event, and when the store opens reads the stored
/// identity and sends each held event, hydrated with it, exactly once.
@Suite("Analytics: start before the first unlock", .serialized, .runsAlone)
struct AnalyticsProtectedStartTests {
    /// An earlier run's store in `data/`, holding an installation id and a logged-in user.
    private static func earlierRun(in directory: TemporaryDirectory, outbox: URL) async throws -> (configuration: AnalyticsConfiguration, installationID: UUID) {
        var configuration = fastConfiguration(directory, destination: .ndjson(file: outbox), store: "data/events.sqlite")
        configuration.batch.overflowQueueSize = 100
        let first = try Analytics(configuration: configuration)
        await first.ready()
        first.logIn(userID: "u-42")
        let installationID = first.installationID
        _ = first.reporter(for: Shop.self).send(name: .view, action: .open)
        #expect(await first.drain(timeout: 10).persisted)
        await first.close()
        return (configuration, installationID)
    }

    /// Hides the store folder behind a regular file, as a locked device hides its contents.
    private static func lock(_ directory: TemporaryDirectory) throws {
        try FileManager.default.moveItem(at: directory.file("data"), to: directory.file("data-unlocked"))
        _ = try directory.write("locked", to: "data")
    }

    private static func unlock(_ directory: TemporaryDirectory) throws {
        try FileManager.default.removeItem(at: directory.file("data"))
        try FileManager.default.moveItem(at: directory.file("data-unlocked"), to: directory.file("data"))
    }

    /// The delivered NDJSON lines.
    private static func delivered(_ outbox: URL) throws -> [[String: Any]] {
        try String(contentsOf: outbox, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("No throw; events wait; once open, each is delivered once with the stored identity")
    func startsBeforeUnlock() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-protected-start")
        let outbox = directory.file("outbox.ndjson")
        let (configuration, installationID) = try await Self.earlierRun(in: directory, outbox: outbox)
        try Self.lock(directory)

        let analytics = try ProtectedData.$availableOverride.withValue(false) { try Analytics(configuration: configuration) }
        #expect(analytics.dispatcher.isWaitingForProtectedData)
        #expect(analytics.isWaitingForStorage)
        let shop = analytics.reporter(for: Shop.self)
        for index in 0..<20 {
            // Held before any stage: no plugin has seen it, so no receipt yet.
            #expect(shop.send(name: .view, action: .open, userData: ["index": .int(index)]).isEmpty)
        }

        try Self.unlock(directory)
        #expect(await analytics.dispatcher.retryOpeningStorage() == .available)
        #expect(await eventually(timeout: 10) { !analytics.isWaitingForStorage })
        #expect(analytics.installationID == installationID)
        #expect(analytics.userID == "u-42")
        #expect((await analytics.drain(timeout: 10).report).stopReason != .queueError)

        let lines = try Self.delivered(outbox).filter { ($0["userData"] as? [String: Any])?["index"] != nil }
        let indices = lines.compactMap { ($0["userData"] as? [String: Any])?["index"] as? Int }
        #expect(indices.sorted() == Array(0..<20), "delivered \(indices.sorted())")
        #expect(Set(lines.compactMap { $0["id"] as? String }).count == lines.count, "an event was delivered twice")
        for line in lines {
            let context = line["context"] as? [String: Any]
            #expect((context?[ContextKey.installationID] as? String)?.lowercased() == installationID.uuidString.lowercased(), "\(line)")
            #expect(context?[ContextKey.userID] as? String == "u-42")
        }
        await analytics.close()
    }

    @Test("An installation id read before the store opened gives way to the stored one, and that is reported")
    func provisionalIdentityIsReported() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-protected-identity")
        let outbox = directory.file("outbox.ndjson")
        let (configuration, installationID) = try await Self.earlierRun(in: directory, outbox: outbox)
        try Self.lock(directory)
        let analytics = try ProtectedData.$availableOverride.withValue(false) { try Analytics(configuration: configuration) }
        let provisional = analytics.installationID
        #expect(provisional != installationID)
        analytics.logOut()

        try Self.unlock(directory)
        #expect(await analytics.dispatcher.retryOpeningStorage() == .available)
        #expect(await eventually(timeout: 10) { !analytics.isWaitingForStorage })
        #expect(analytics.installationID == installationID)
        #expect(analytics.userID == nil, "the log-out made before the store opened was lost")
        let messages = analytics.diagnostics.snapshot().recentIssues.map(\.message)
        #expect(messages.contains { $0.lowercased().contains(provisional.uuidString.lowercased()) && $0.contains("replaced by the stored one") }, "\(messages)")
        await analytics.close()
    }

    @Test("A store that cannot be opened for another reason still throws")
    func otherFailuresStillThrow() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-protected-other")
        _ = try directory.write("a file", to: "data")
        let configuration = fastConfiguration(directory, store: "data/events.sqlite")
        #expect(throws: StoreError.self) { try Analytics(configuration: configuration) }
    }
}
