import Foundation
import TestSupport
import Testing

/// `demo --config FILE` through the real binary: a file that is not strict JSON, or cannot be
/// read, stops the demo (exit 1) with one line naming the file and the problem.
@Suite("demo --config: strict JSON and unreadable files", .serialized)
struct DemoStrictConfigTests {
    /// Runs `demo` with `arguments`; returns its status and standard error lines.
    private func run(_ arguments: [String]) async throws -> (status: Int32?, errors: [String]) {
        let demo = try DemoProcess(arguments)
        let status = await demo.wait(timeout: 30)
        if status == nil { demo.kill() }
        return (status, demo.standardError.split(separator: "\n").map(String.init))
    }

    @Test("A trailing comma in --config exits 1 and names the file, line and column")
    func trailingCommaIsRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-strict-config")
        let config = try directory.write("{\n  \"store\": \"x.sqlite\",\n  \"appId\": \"a\",\n}\n", to: "app.json")
        let result = try await run(["--store", directory.file("j.sqlite").path, "--quiet", "--config", config.path])
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.errors == ["demo: Invalid configuration (\(config.path)) at (root): not valid JSON at line 3, column 15: trailing comma before '}'"],
                "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("j.sqlite").path), "nothing is stored")
    }

    @Test("A missing --config file exits 1 and says 'no such file' with the path")
    func missingConfigSaysWhy() async throws {
        let directory = try TemporaryDirectory(prefix: "demo-missing-config")
        let absent = directory.file("absent.json").path
        let result = try await run(["--store", directory.file("j.sqlite").path, "--quiet", "--config", absent])
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.errors == ["demo: Invalid configuration (\(absent)) at (file): cannot read: no such file"], "\(result.errors)")
    }
}
