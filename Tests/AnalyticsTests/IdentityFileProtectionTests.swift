@testable import DataQuality
import Foundation
import Testing
import TestSupport

/// The identity file (`identity.json`, `DataQualityStack(configuration:folder:)`) lives in a
/// folder made private from the start, and is itself owner-only.
@Suite("Identity file: private folder")
struct IdentityFileProtectionTests {
    private static func mode(_ url: URL) throws -> Int {
        try #require((FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test("Its missing folders are made 0700, leaving no staging folder; the file is 0600")
    func folderIsPrivate() throws {
        let directory = try TemporaryDirectory(prefix: "identity-private")
        let file = directory.file("app/state/identity.json")
        let store = try FileIdentityStore(url: file)
        try store.setValue("v", forKey: "k")
        #expect(try Self.mode(directory.file("app")) == 0o700)
        #expect(try Self.mode(directory.file("app/state")) == 0o700)
        #expect(try Self.mode(file) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["app"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("app/state").path) == ["identity.json"])
    }

    @Test("A folder path through a regular file is an error naming the folder")
    func pathThroughAFile() throws {
        let directory = try TemporaryDirectory(prefix: "identity-through-file")
        let blocker = try directory.write("x", to: "blocker")
        let error = try #require(throws: IdentityStoreError.self) { try FileIdentityStore(url: blocker.appendingPathComponent("identity.json")) }
        #expect(error.operation == "create folder", "\(error)")
    }
}
