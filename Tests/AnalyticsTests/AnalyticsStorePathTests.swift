import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Store paths the runtime must handle: relative, one character, `.`, a folder, a trailing
/// slash. Each either works or fails with a clear error naming the path; none crashes.
///
/// The working directory is never changed (tests run in parallel in one process).
@Suite("Analytics store paths", .runsAlone)
struct AnalyticsStorePathTests {
    /// A relative path from the working directory to `url`, through `..` up to the root.
    private func relativePath(to url: URL) -> String {
        let working = FileManager.default.currentDirectoryPath.split(separator: "/")
        return String(repeating: "../", count: working.count) + url.path.drop { $0 == "/" }
    }

    /// Starts, sends one event, checks it is stored at `expected`, and closes.
    private func works(storePath: String, expected: URL) async throws {
        var configuration = fastConfiguration(try TemporaryDirectory(prefix: "unused"))
        configuration.storePath = storePath
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        #expect(await analytics.drain(timeout: 5).persisted)
        #expect(try analytics.records().map(\.id) == [id])
        #expect(FileManager.default.fileExists(atPath: expected.path), "\(storePath) is \(expected.path)")
        await analytics.close()
    }

    @Test("A relative store path is relative to the working directory")
    func relativePathWorks() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-path-relative")
        let relative = relativePath(to: directory.file("relative/events.sqlite"))
        #expect(!relative.hasPrefix("/"))
        try await works(storePath: relative, expected: directory.file("relative/events.sqlite"))
    }

    @Test("A one-character file name works")
    func oneCharacterName() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-path-one")
        try await works(storePath: directory.file("x").path, expected: directory.file("x"))
        #expect(FileManager.default.fileExists(atPath: directory.file("x.journal").path))
    }

    @Test("A path naming a folder is refused with a StoreError naming it", arguments: ["folder", "folder/.", ".", "folder/.."])
    func folderIsRefused(_ name: String) throws {
        let directory = try TemporaryDirectory(prefix: "analytics-path-folder")
        try FileManager.default.createDirectory(at: directory.file("folder"), withIntermediateDirectories: true)
        // "." alone is the working directory: it is refused before anything is created there.
        let path = name == "." ? "." : directory.url.path + "/" + name
        var configuration = fastConfiguration(directory)
        configuration.storePath = path
        let error = try #require(throws: StoreError.self) { try Analytics(configuration: configuration) }
        guard case .cannotOpen(let reported, let reason, _) = error else {
            Issue.record("expected cannotOpen, got \(error)")
            return
        }
        #expect(reported == path)
        #expect(reason.contains("must name a file, not a folder"), "\(error)")
        #expect(error.description.contains(path))
    }

    @Test("A trailing slash is a configuration error naming the store field", arguments: ["events/", "/", "x/"])
    func trailingSlashIsAConfigurationError(_ path: String) throws {
        let configuration = AnalyticsConfiguration(storePath: path)
        let error = try #require(throws: ConfigurationError.self) { try Analytics(configuration: configuration) }
        #expect(error.field == "store" && error.reason.contains("names a folder"), "\(error)")
    }

    @Test("An empty store path is a configuration error")
    func emptyPath() throws {
        let error = try #require(throws: ConfigurationError.self) { try Analytics(configuration: AnalyticsConfiguration(storePath: "")) }
        #expect(error.field == "store")
    }

    @Test("A store path through a regular file is refused with a StoreError")
    func pathThroughAFile() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-path-through-file")
        let file = try write("not a folder", to: "file.txt", in: directory)
        var configuration = fastConfiguration(directory)
        configuration.storePath = file.path + "/events.sqlite"
        let error = try #require(throws: StoreError.self) { try Analytics(configuration: configuration) }
        #expect(error.description.contains(file.path), "\(error)")
    }

    @Test("A store path naming a file that is not a store is refused and left untouched")
    func notAStore() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-path-not-store")
        let file = try write("some notes, not a database\n", to: "notes.txt", in: directory)
        var configuration = fastConfiguration(directory)
        configuration.storePath = file.path
        #expect {
            _ = try Analytics(configuration: configuration)
        } throws: { error in
            guard case StoreError.notAStore(let path, _) = error else { return false }
            return path == file.path
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "some notes, not a database\n")
    }
}
