import Analytics
import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A configuration must be strict JSON (RFC 8259): what Foundation would let through (trailing
/// commas, comments, duplicate keys, …) is refused with its line and column, from a file and
/// from data alike. An unreadable file says why, in plain words.
@Suite("AnalyticsConfiguration: strict JSON")
struct ConfigurationStrictJSONTests {
    /// The repository's root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Each deviation from RFC 8259 is refused with its line and column", arguments: JSONDeviation.all)
    func deviationIsRefused(deviation: JSONDeviation) throws {
        let fromData = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data(deviation.bytes)) }
        #expect(fromData.field == "(root)", "\(fromData)")
        #expect(fromData.reason.hasPrefix("not valid JSON at " + deviation.position), "\(fromData)")
        #expect(fromData.reason.contains(deviation.reason), "\(fromData)")

        let directory = try TemporaryDirectory(prefix: "config-strict")
        let file = directory.file("app.json")
        try Data(deviation.bytes).write(to: file)
        let fromFile = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(contentsOf: file) }
        #expect(fromFile.file == file.path)
        #expect(fromFile.description == "Invalid configuration (\(file.path)) at (root): \(fromData.reason)", "\(fromFile)")
    }

    @Test("What Foundation alone accepts is refused, and loads once the deviation is gone", arguments: [
        (#"{"store": "x.sqlite", "appId": "a",}"#, #"{"store": "x.sqlite", "appId": "a"}"#, "line 1, column 35: trailing comma before '}'"),
        (#"{"store": "x.sqlite", "appId": "b", "appId": "a"}"#, #"{"store": "x.sqlite", "appId": "a"}"#, "line 1, column 37: duplicate key \"appId\""),
        ("{\"store\": \"x.sqlite\", \"appId\": \"a\",\n \"batch\": {\"deliverySize\": 5, \"deliverySize\": 6}}",
         "{\"store\": \"x.sqlite\", \"appId\": \"a\",\n \"batch\": {\"deliverySize\": 6}}", "line 2, column 31: duplicate key \"deliverySize\" (first at line 2, column 12)"),
        (#"{"store": "x.sqlite", "appId": "a", "strategies": ["boot",]}"#, #"{"store": "x.sqlite", "appId": "a", "strategies": ["boot"]}"#, "line 1, column 58: trailing comma before ']'"),
    ])
    func foundationLeniencyIsRefused(strict: String, valid: String, position: String) throws {
        #expect((try? JSONSerialization.jsonObject(with: Data(strict.utf8))) != nil, "Foundation accepts it: the point of the check")
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data(strict.utf8)) }
        #expect(error.reason.hasPrefix("not valid JSON at \(position)"), "\(error)")
        let configuration = try AnalyticsConfiguration(json: Data(valid.utf8))
        #expect(configuration.appID == "a" && configuration.storePath == "x.sqlite")
    }

    @Test("Valid configurations load: every example and documented configuration, escapes, non-ASCII, sibling keys")
    func validConfigurationsLoad() throws {
        let example = try AnalyticsConfiguration(contentsOf: Self.repository.appendingPathComponent("Examples/demo-config.json"))
        #expect(example.appID == "demo" && example.deliveredHistory == 10000)

        var blocks: [String] = []
        for document in ["README.md", "Modules/Analytics/Sources/Analytics/Analytics.docc/GettingStarted.md"] {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(document), encoding: .utf8)
            blocks += Self.jsonBlocks(in: text).filter { $0.contains("\"store\"") }
        }
        #expect(blocks.count >= 2, "the README and the guide each show a configuration")
        for block in blocks {
            let configuration = try AnalyticsConfiguration(json: Data(block.utf8))
            #expect(configuration.appID == "shop")
        }
        _ = try AnalyticsConfiguration(json: Data(AnalyticsConfigurationTests.fullJSON.utf8))

        let escaped = #"{"store": "x.sqlite", "appId": "caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \t", "batch": {"deliverySize": 5}, "retry": {"maxAttempts": 5}}"#
        let configuration = try AnalyticsConfiguration(json: Data("\r\n \t\(escaped)\n".utf8))
        #expect(configuration.appID == "café 😀 \"q\" \\ / \t")
        #expect(configuration.batch.deliverySize == 5)
    }

    @Test("A contract file named by the configuration is strict JSON too: the start fails naming the contract's line and column")
    func contractOfTheConfigurationIsStrict() throws {
        let directory = try TemporaryDirectory(prefix: "config-strict-contract")
        let contract = try write(#"{"categories": {},}"#, to: "contract.json", in: directory)
        var configuration = fastConfiguration(directory)
        configuration.contractPath = contract.path
        let error = try #require(throws: ConfigurationError.self) { try Analytics(configuration: configuration) }
        #expect(error.field == "contract", "\(error)")
        #expect(error.reason == "Invalid data contract (\(contract.path)) at (root): not valid JSON at line 1, column 18: trailing comma before '}'",
                "\(error)")
    }

    /// The text of each ```json block of a Markdown document.
    static func jsonBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```json" {
                current = []
            } else if line == "```", let lines = current {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("A file that cannot be read says why: no such file, is a directory, permission denied")
    func unreadableFileSaysWhy() throws {
        let directory = try TemporaryDirectory(prefix: "config-unreadable")
        var cases: [(URL, String)] = [
            (directory.file("absent.json"), "cannot read: no such file"),
            (directory.url, "cannot read: is a directory"),
        ]
        let locked = try write(#"{"store": "x.sqlite"}"#, to: "locked.json", in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: locked.path) }
        // Root reads any file: the permission case only means something for other users.
        if getuid() != 0 { cases.append((locked, "cannot read: permission denied")) }
        for (url, reason) in cases {
            let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(contentsOf: url) }
            #expect(error.field == "(file)" && error.reason == reason, "\(error)")
            #expect(error.description == "Invalid configuration (\(url.path)) at (file): \(reason)")
            #expect(!error.description.contains("could not be completed"))
        }
    }
}
