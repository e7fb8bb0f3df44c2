@testable import Dispatcher
import Foundation
import Testing
import TestSupport

@Suite("Endpoint validation")
struct EndpointURLTests {
    @Test("HTTPS is accepted anywhere", arguments: ["https://api.segment.io", "https://collector.example.com:8443/x"])
    func https(_ text: String) throws {
        #expect(try EndpointURL.validate(text).absoluteString == text)
    }

    @Test("plain HTTP is accepted only for loopback",
          arguments: ["http://127.0.0.1:9000", "http://127.8.9.10", "http://localhost:80", "http://[::1]:8080"])
    func loopback(_ text: String) throws {
        #expect(try EndpointURL.validate(text).absoluteString == text)
    }

    @Test("plain HTTP elsewhere is refused with a clear message, without credentials")
    func insecure() throws {
        let error = #expect(throws: EndpointError.self) { try EndpointURL.validate("http://user:pw@128.0.0.1/collect") }
        #expect(error == .insecure("http://128.0.0.1/collect"))
        #expect(error?.description.contains("HTTPS is required") == true)
        #expect(error?.description.contains("pw") == false)
        #expect(throws: EndpointError.self) { try EndpointURL.validate("http://localhost.evil.com") }
        #expect(throws: EndpointError.self) { try EndpointURL.validate("http://127.0.0.1.evil.com") }
        #expect(throws: EndpointError.unsupportedScheme("ftp://example.com")) { try EndpointURL.validate("ftp://example.com") }
        #expect(throws: EndpointError.malformed("not a url")) { try EndpointURL.validate("not a url") }
    }

    @Test("loopback detection")
    func loopbackHosts() {
        #expect(EndpointURL.isLoopback(host: "127.0.0.1"))
        #expect(EndpointURL.isLoopback(host: "127.255.255.254"))
        #expect(EndpointURL.isLoopback(host: "LOCALHOST"))
        #expect(EndpointURL.isLoopback(host: "::1"))
        #expect(!EndpointURL.isLoopback(host: "127.0.0.256"))
        #expect(!EndpointURL.isLoopback(host: "10.0.0.1"))
        #expect(!EndpointURL.isLoopback(host: "example.com"))
    }

    @Test("a file:// URL naming a host other than localhost is refused, not written to the bare path")
    func fileURLWithAHost() async throws {
        let error = #expect(throws: EndpointError.self) { try EndpointURL.fileURL("file://somehost/x") }
        #expect(error == .remoteFileHost("file://somehost/x", host: "somehost"))
        #expect(error?.description.contains("somehost") == true && error?.description.contains("localhost") == true)
        #expect(throws: EndpointError.self) { try NDJSONFileDestination(endpoint: "file://somehost/x") }
        #expect(throws: EndpointError.self) { try EndpointURL.validateFile(URL(string: "file://fileserver/x")!) }

        // Local forms name the same file; the paths are in a fresh temporary folder, never written here.
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let local = folder.file("x.ndjson").path
        #expect(try EndpointURL.fileURL("file://" + local).path == local)
        #expect(try EndpointURL.fileURL("file://localhost" + local).path == local)
        #expect(try EndpointURL.fileURL(local).path == local)
        #expect(try NDJSONFileDestination(endpoint: "file://" + folder.file("y.ndjson").path).fileURL.path == folder.file("y.ndjson").path)

        // The non-throwing initializer keeps the URL but never writes to the bare path.
        let target = folder.file("out.ndjson")
        let destination = NDJSONFileDestination(path: "file://somehost" + target.path)
        let result = await destination.deliver([DeliveryFixtures.stored(DeliveryFixtures.trackedEvent())], sentAt: Date())
        #expect(result != .delivered)
        #expect(!FileManager.default.fileExists(atPath: target.path), "nothing is written to the path without the host")
    }
}
