@testable import Dispatcher
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files the SDK makes cannot be turned against other files: never opened through a
/// symbolic link, only regular files, refused before anything is created, locked or chmod-ed.
@Suite("Store files: no symbolic link, no device, no FIFO")
struct FileSafetyTests {
    /// A file outside the store's folder that a planted link points to, and what it was.
    struct Target {
        let path: String
        static let content = "precious\n"

        init(in directory: TemporaryDirectory) throws {
            path = try directory.write(Self.content, to: "elsewhere-\(UUID().uuidString)").path
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        }

        /// Whether content and mode are as they were.
        var untouched: Bool {
            let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
            return FileManager.default.contents(atPath: path) == Data(Self.content.utf8) && mode == 0o644
        }
    }

    /// The reason of a `cannotOpen`, or the error's description.
    private static func reason(_ error: any Error) -> String {
        if case StoreError.cannotOpen(_, let reason, _) = error { return reason }
        return "\(error)"
    }

    @Test("A symbolic link as <store>.lock is refused; its target keeps its content and mode")
    func symlinkedLockIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "safety-lock")
        let target = try Target(in: directory)
        let store = directory.file("events.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: store + ".lock", withDestinationPath: target.path)
        let error = #expect(throws: StoreError.self) { _ = try EventStore(path: store) }
        #expect(error.map(Self.reason)?.contains("symbolic link") == true, "\(String(describing: error))")
        #expect(target.untouched)
        #expect(!FileManager.default.fileExists(atPath: store), "nothing created")
    }

    @Test("A store path that is a FIFO, a link to one, or a link to a file is refused at once, nothing changed")
    func nonRegularStorePathsAreRefused() throws {
        let directory = try TemporaryDirectory(prefix: "safety-store")
        let fifo = directory.file("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let target = try Target(in: directory)
        let linkToFIFO = directory.file("to-fifo.sqlite").path
        let linkToFile = directory.file("to-file.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: linkToFIFO, withDestinationPath: fifo)
        try FileManager.default.createSymbolicLink(atPath: linkToFile, withDestinationPath: target.path)
        for (path, expected) in [(fifo, "a FIFO"), (linkToFIFO, "a symbolic link"), (linkToFile, "a symbolic link")] {
            let error = #expect(throws: StoreError.self) { _ = try EventStore(path: path) }
            #expect(error.map(Self.reason)?.hasPrefix(expected) == true, "\(path): \(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: path + ".lock"), "no lock file made for \(path)")
        }
        // Read-only (the monitor): a FIFO would block the read; refused instead.
        let error = #expect(throws: StoreError.self) { _ = try EventStore(path: linkToFIFO, readOnly: true) }
        #expect(error.map(Self.reason)?.hasPrefix("a FIFO") == true, "\(String(describing: error))")
        let mode = try FileManager.default.attributesOfItem(atPath: fifo)[.posixPermissions] as? Int
        #expect(mode == 0o644, "the FIFO was not chmod-ed")
        #expect(target.untouched)
    }

    @Test("A planted <store>-wal link is refused; its target is untouched")
    func plantedLogLinkIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "safety-wal")
        let target = try Target(in: directory)
        let store = directory.file("events.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: store + "-wal", withDestinationPath: target.path)
        #expect(throws: StoreError.self) { _ = try EventStore(path: store) }
        #expect(target.untouched)
    }

    @Test("demo generate on a link to a FIFO: exit 1 with the reason, at once, nothing chmod-ed")
    func demoRefusesAFIFO() async throws {
        let directory = try TemporaryDirectory(prefix: "safety-demo")
        let fifo = directory.file("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let link = directory.file("store.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fifo)
        let child = try DemoProcess(["generate", "--store", link, "--count", "1"])
        let status = await child.wait(timeout: 30)
        if status == nil { child.kill() }
        #expect(status == 1, "\(child.standardError)")
        #expect(child.standardError.contains("not a regular file"), "\(child.standardError)")
        #expect(try FileManager.default.attributesOfItem(atPath: fifo)[.posixPermissions] as? Int == 0o644)
    }
}
