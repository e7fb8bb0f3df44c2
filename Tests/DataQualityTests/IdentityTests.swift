import Foundation
import Testing
@testable import DataQuality
import TestSupport

@Suite("Identifiers and their persistence")
struct IdentityTests {
    @Test func theInstallationIDIsCreatedOnceAndSurvivesARestart() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        let first = Identity(store: try FileIdentityStore(url: file))
        let installation = first.installationID
        #expect(first.installationID == installation)
        let restarted = Identity(store: try FileIdentityStore(url: file))
        #expect(restarted.installationID == installation)
        #expect(restarted.instanceID != first.instanceID)
    }

    @Test func theFileIsOwnerOnly() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = folder.file("nested/identity.json")
        _ = Identity(store: try FileIdentityStore(url: file)).installationID
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(leftovers == ["identity.json"])
    }

    @Test func theUserIDIsSetOnLoginPersistedAndClearedOnLogout() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        let identity = Identity(store: try FileIdentityStore(url: file))
        #expect(identity.userID == nil)
        identity.logIn(userID: "user-42")
        #expect(Identity(store: try FileIdentityStore(url: file)).userID == "user-42")
        identity.logOut()
        #expect(identity.userID == nil)
        #expect(Identity(store: try FileIdentityStore(url: file)).userID == nil)
    }

    @Test func purgeLeavesNoIdentifiers() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        let store = try FileIdentityStore(url: file)
        let identity = Identity(store: store)
        let old = identity.installationID
        identity.logIn(userID: "user-42")
        let sessions = SessionTracker(store: store)
        _ = sessions.nextEvent(at: Date(), id: UUID())
        identity.purge()
        sessions.purge()
        let reopened = try FileIdentityStore(url: file)
        #expect(reopened.value(forKey: Identity.Key.installationID) == nil)
        #expect(reopened.value(forKey: Identity.Key.userID) == nil)
        #expect(reopened.value(forKey: SessionTracker.storeKey) == nil)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains(old.uuidString.lowercased()))
        #expect(!text.contains("user-42"))
        #expect(identity.userID == nil)
        #expect(identity.installationID != old)
    }

    @Test func anyKeyValueStoreCanHoldTheIdentity() {
        let backing = InMemoryIdentityStore()
        let adapter = ClosureIdentityStore(
            get: { backing.value(forKey: $0) },
            set: { backing.setValue($1, forKey: $0) },
            remove: { backing.removeValue(forKey: $0) }
        )
        let identity = Identity(store: adapter)
        let id = identity.installationID
        #expect(backing.value(forKey: Identity.Key.installationID) == id.uuidString.lowercased())
        identity.purge()
        #expect(backing.contents.isEmpty)
    }

    @Test func aCorruptFileIsSetAsideAndANewStoreStarts() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = try folder.write("{not json", to: "identity.json")
        let store = try FileIdentityStore(url: file)
        #expect(store.recoveredFromCorruption)
        #expect(FileManager.default.fileExists(atPath: file.path + ".corrupt"))
        try store.setValue("v", forKey: "k")
        #expect(try FileIdentityStore(url: file).value(forKey: "k") == "v")
    }

    @Test func aFailedWriteIsReportedNotFatal() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let storeFolder = folder.file("store")
        let store = try FileIdentityStore(url: storeFolder.appendingPathComponent("identity.json"))
        // Replace the folder by a plain file: every write now fails (even for root).
        try FileManager.default.removeItem(at: storeFolder)
        try Data("x".utf8).write(to: storeFolder)
        let diagnostics = Diagnostics()
        let identity = Identity(store: store, diagnostics: diagnostics)
        let id = identity.installationID
        #expect(identity.installationID == id)
        let issue = try #require(diagnostics.snapshot().recentIssues.first)
        #expect(issue.kind == .storage)
        #expect(issue.code == "identity_write_failed")
        #expect(issue.message.contains("identity.json"))
        #expect(throws: IdentityStoreError.self) { try store.setValue("v", forKey: "k") }
    }

    @Test func theSessionContinuesAcrossARestartAndRollsOverWhenExpired() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = SessionTracker(store: try FileIdentityStore(url: file), foregroundTimeout: 100, backgroundTimeout: 100)
        let session = first.nextEvent(at: start, id: UUID())
        let restarted = SessionTracker(store: try FileIdentityStore(url: file), foregroundTimeout: 100, backgroundTimeout: 100)
        let continued = restarted.nextEvent(at: start.addingTimeInterval(50), id: UUID())
        #expect(continued.sessionID == session.sessionID)
        #expect(continued.eventIndex == 2)
        let again = SessionTracker(store: try FileIdentityStore(url: file), foregroundTimeout: 100, backgroundTimeout: 100)
        let rolled = again.nextEvent(at: start.addingTimeInterval(200), id: UUID())
        #expect(rolled.isNewSession)
        #expect(rolled.sessionIndex == 2)
        #expect(rolled.previousSessionID == session.sessionID)
    }
}
