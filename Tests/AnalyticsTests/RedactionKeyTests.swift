import Analytics
@testable import DataQuality
import Dispatcher
import Foundation
import LoopbackHTTP
import TestSupport
import Testing
import Tracking

/// Hashed redaction is keyed per installation: HMAC-SHA256 under 32 random bytes kept in
/// `<store>.redaction-key` (0600, created exclusively, never followed through a link), so the
/// app id that every event carries no longer lets a dictionary reverse a hash.
@Suite("Hashed redaction keyed per installation")
struct RedactionKeyTests {
    /// The hash of `email` that one run on the store in `directory` sends, and every request body.
    private func sendOnce(_ directory: TemporaryDirectory, _ server: LoopbackHTTPServer) async throws -> String? {
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.appID = "shop"
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        analytics.reporter(for: Shop.self).send(name: .signup, action: .tap, userData: ["email": "ada@example.com"])
        #expect(await analytics.drain(timeout: 10).persisted)
        _ = await analytics.drain(timeout: 10).report
        await analytics.close()
        let properties = segmentEvents(server).last?["properties"] as? [String: Any]
        return properties?["email"] as? String
    }

    @Test("Differs between two installations, stable within one across restarts; the key never leaves the file")
    func keyedPerInstallation() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let first = try TemporaryDirectory(prefix: "redaction-key-a")
        let second = try TemporaryDirectory(prefix: "redaction-key-b")
        let a1 = try #require(try await sendOnce(first, server))
        let a2 = try #require(try await sendOnce(first, server))
        let b1 = try #require(try await sendOnce(second, server))
        #expect(a1.hasPrefix("hmac:") && a1.count == 21, "\(a1)")
        #expect(a1 == a2, "stable within one installation, across a restart")
        #expect(a1 != b1, "another installation hashes the same value differently")
        // Not the old, reversible form: sha256(appId + value).
        #expect(!a1.hasSuffix(String(SHA256Digest.hex("shop" + "ada@example.com").prefix(16))))

        let keyPath = first.file("events.sqlite.redaction-key").path
        let key = try #require(FileManager.default.contents(atPath: keyPath))
        #expect(key.count == 32)
        let mode = try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let wire = server.requests.map(\.body).reduce(Data(), +) + Data(server.requests.flatMap(\.headers).map { $0.key + $0.value }.joined().utf8)
        let hex = SHA256Digest.hex(of: Array(key))
        #expect(wire.range(of: key) == nil && wire.range(of: Data(hex.utf8)) == nil && wire.range(of: key.base64EncodedData()) == nil)
        #expect(!"\(RedactionKey.random())".contains(hex))
    }

    @Test("HMAC-SHA256 matches RFC 4231's vectors")
    func hmacVectors() {
        let code = HMACSHA256.code(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(SHA256Digest.hex(of: code) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let long = HMACSHA256.code(key: [UInt8](repeating: 0xaa, count: 131), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(SHA256Digest.hex(of: long) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("A key file that is a symbolic link or not a regular file is refused, its target untouched")
    func keyFileMustBeARegularFile() throws {
        let directory = try TemporaryDirectory(prefix: "redaction-key-link")
        let target = try directory.write("precious", to: "target.txt")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        let link = directory.file("store.redaction-key").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        #expect(throws: IdentityStoreError.self) { try RedactionKey.loadOrCreate(atPath: link) }
        #expect(try String(contentsOf: target, encoding: .utf8) == "precious")
        #expect(try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int == 0o644)
        let folder = directory.file("folder.redaction-key").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(throws: IdentityStoreError.self) { try RedactionKey.loadOrCreate(atPath: folder) }
    }

    @Test("A purge gives the installation a new key: a value hashed after it differs from before, and stays so after a restart")
    func purgeRenewsTheKey() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "redaction-key-purge")
        defer { directory.remove() }
        let before = try #require(try await sendOnce(directory, server))
        let analytics = try Analytics(configuration: fastConfiguration(directory, destination: segment(server)))
        await analytics.ready()
        await analytics.purge()
        analytics.reporter(for: Shop.self).send(name: .signup, action: .tap, userData: ["email": "ada@example.com"])
        _ = await analytics.drain(timeout: 10).report
        await analytics.close()
        let after = try #require((segmentEvents(server).last?["properties"] as? [String: Any])?["email"] as? String)
        let restarted = try #require(try await sendOnce(directory, server))
        #expect(before != after, "the hash made before the purge still matches")
        #expect(after == restarted, "the new key is kept for the next start")
    }
}
