import Foundation
import TestSupport
import Testing

/// Under `umask 000` every folder and file the SDK makes is private from the start: folders
/// 0700 (each missing component of the store's path and of an NDJSON outbox's), files 0600.
/// The umask is set in a child shell, never in the test process.
@Suite("Files and folders under umask 000")
struct UmaskTests {
    @Test("demo generate, then flush to an NDJSON outbox in new nested folders: nothing readable by others")
    func everythingPrivateUnderUmaskZero() throws {
        let directory = try TemporaryDirectory(prefix: "umask-zero")
        let demo = try DemoProcess.executableURL().path
        let store = directory.file("a/b/events.sqlite").path
        let outbox = directory.file("out/x/y/outbox.ndjson").path
        let script = """
        umask 000
        "$0" generate --store "$1" --count 5 >/dev/null || exit 10
        "$0" flush --store "$1" --endpoint "file://$2" --format ndjson --timeout 30 >/dev/null || exit 11
        """
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script, demo, store, outbox]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: outbox))

        var open: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.file(name).path)
            let mode = (attributes[.posixPermissions] as? Int) ?? 0
            let isFolder = (attributes[.type] as? FileAttributeType) == .typeDirectory
            if mode != (isFolder ? 0o700 : 0o600) { open.append("\(name) \(String(mode, radix: 8))") }
        }
        #expect(open.isEmpty, "not private: \(open)")
    }
}
