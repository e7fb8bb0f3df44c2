import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// The runtime's identity record, through the Dispatcher's public API: kept across a restart,
/// erased by purge, and unable to reach the Dispatcher's own state.
@Suite("Dispatcher identity record")
struct IdentityRecordTests {
    func open(_ directory: TemporaryDirectory) throws -> Dispatcher {
        try Dispatcher(configuration: DispatcherConfiguration(storePath: directory.url.appendingPathComponent("events.sqlite").path))
    }

    @Test func fieldsAreKeptAcrossARestartAndErasedByPurge() async throws {
        let directory = try TemporaryDirectory(prefix: "identity-record")
        defer { directory.remove() }
        let first = try open(directory)
        #expect(try first.savedIdentity("installation_id") == nil)
        try first.saveIdentity("abc", for: "installation_id")
        try first.saveIdentity("u-1", for: "user_id")
        try first.saveIdentity("gone", for: "temporary")
        try first.saveIdentity(nil, for: "temporary")
        await first.close()

        let second = try open(directory)
        #expect(try second.savedIdentity("installation_id") == "abc")
        #expect(try second.savedIdentity("user_id") == "u-1")
        #expect(try second.savedIdentity("temporary") == nil)
        try await second.purge()
        #expect(try second.savedIdentity("installation_id") == nil)
        #expect(try second.savedIdentity("user_id") == nil)
        await second.close()
    }

    @Test func aFieldNamedLikeTheDispatchersOwnStateIsKeptApartAndPurged() async throws {
        let directory = try TemporaryDirectory(prefix: "identity-reserved")
        defer { directory.remove() }
        let dispatcher = try open(directory)
        try dispatcher.saveIdentity("not a position", for: "_ingest.journal_position")
        #expect(try dispatcher.savedIdentity("_ingest.journal_position") == "not a position")
        let event = TrackedEvent(category: "Checkout", name: "pay", action: "tap")
        #expect(dispatcher.send(event) != nil)
        try await dispatcher.purge()
        #expect(try dispatcher.savedIdentity("_ingest.journal_position") == nil)
        await dispatcher.close()

        // The journal position the writer keeps was never overwritten: the store reopens.
        let reopened = try open(directory)
        #expect(reopened.counters.store.pending == 0)
        await reopened.close()
    }
}
