@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Folders the store makes are private from the start, every store file is given the data
/// protection class, and a class that cannot be set is reported, not ignored.
@Suite("Store: file protection")
struct StoreProtectionTests {
    /// The permission bits of `path`.
    private static func mode(_ path: String) throws -> Int {
        try #require((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    /// Collects the paths the protection seam was asked to protect.
    private final class Protected: Sendable {
        private let paths = LockedValue<[String]>([])
        func record(_ path: String) { paths.withLock { $0.append(path) } }
        var all: [String] { paths.withLock { $0 } }
    }

    @Test("A Dispatcher's new store folders and journal folder are 0700")
    func foldersArePrivate() async throws {
        let directory = try TemporaryDirectory(prefix: "protection-modes")
        let storePath = directory.file("outer/inner/events.sqlite").path
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        #expect(try Self.mode(directory.file("outer").path) == 0o700)
        #expect(try Self.mode(directory.file("outer/inner").path) == 0o700)
        #expect(try Self.mode(storePath + ".journal") == 0o700)
        #expect(try Self.mode(storePath) == 0o600)
        await dispatcher.close()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.file("outer").path)
        #expect(leftovers == ["inner"], "a staging folder was left: \(leftovers)")
    }

    @Test("Every store file and folder is given the protection class")
    func everyFileIsProtected() async throws {
        let directory = try TemporaryDirectory(prefix: "protection-files")
        let storePath = directory.file("sdk/events.sqlite").path
        let protected = Protected()
        let dispatcher = try FileProtection.$applyOverride.withValue({ path in
            protected.record(path)
            return nil
        }) {
            try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        }
        let paths = protected.all.map { $0.replacingOccurrences(of: directory.url.path + "/", with: "") }
        for expected in ["events.sqlite", "events.sqlite-wal", "events.sqlite-shm", "events.sqlite.lock"] {
            #expect(paths.contains("sdk/" + expected), "\(expected) not protected: \(paths)")
        }
        // Folders are protected under their staging name, before they appear.
        #expect(paths.contains { $0.hasPrefix("sdk.tmp-") }, "\(paths)")
        #expect(paths.contains { $0.hasPrefix("sdk/events.sqlite.journal.tmp-") }, "\(paths)")
        await dispatcher.close()
    }

    @Test("A protection class that cannot be set is reported through the diagnostics")
    func failuresAreReported() async throws {
        let directory = try TemporaryDirectory(prefix: "protection-failure")
        let storePath = directory.file("sdk/events.sqlite").path
        let messages = Protected()
        let dispatcher = try FileProtection.$applyOverride.withValue({ path in "refused for \(path)" }) {
            try Dispatcher(configuration: DispatcherConfiguration(
                storePath: storePath, onDiagnostic: { messages.record($0.description) }))
        }
        #expect(dispatcher.storage == .available)
        let reported = messages.all.filter { $0.contains("data protection") }
        #expect(reported.contains { $0.contains("refused for \(directory.file("sdk").path)") }, "\(messages.all)")
        #expect(reported.contains { $0.hasSuffix("events.sqlite") }, "\(messages.all)")
        #expect(reported.contains { $0.hasSuffix("events.sqlite.lock") }, "\(messages.all)")
        #expect(reported.contains { $0.hasSuffix("events.sqlite.journal") }, "\(messages.all)")
        await dispatcher.close()
    }

    /// iOS answers `EPERM` to reading a protected store before the first unlock: that is a store
    /// to open later, not a foreign file to refuse for good. (Reading a folder fails too, with
    /// `EISDIR`, whoever the user.)
    @Test("A store file that cannot be read now is unreadable, not foreign")
    func unreadableIsNotForeign() throws {
        let directory = try TemporaryDirectory(prefix: "protection-unreadable")
        let kind = EventStoreSignature.classify(directory.url.path)
        #expect(kind == .unreadable(errno: EISDIR), "classified as \(kind)")
    }

    @Test("An existing folder is kept as it is; a path through a file is refused")
    func existingFolders() throws {
        let directory = try TemporaryDirectory(prefix: "protection-existing")
        #expect(try FileProtection.createDirectory(atPath: directory.url.path) == [])
        let file = try directory.write("x", to: "file")
        #expect(throws: StoreError.self) { try FileProtection.createDirectory(atPath: file.path + "/sub") }
    }
}
