@testable import Benchmarks
@testable import Dispatcher
import Foundation
import Testing

/// `startup_ms_*` time what an app waits for at start: with the store's opening held on its
/// queue for 1.5 s, the probe still reports far less, and its event is persisted once it opens.
@Suite("StartupPhase")
struct StartupPhaseTests {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("startup-phase-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("The probe times init and the first send, not the store's opening")
    func probeExcludesTheOpen() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let semaphore = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { semaphore.signal() }
        let clock = ContinuousClock()
        let began = clock.now
        let milliseconds = try await Dispatcher.$beforeBackgroundOpen.withValue({ _ = semaphore.wait(timeout: .now() + 20) }) {
            try await StartupPhase.probe(storePath: folder.appendingPathComponent("events.sqlite").path)
        }
        // The probe returned only after its event was persisted, so after the held opening.
        #expect(clock.now - began >= .seconds(1.4))
        #expect(milliseconds > 0 && milliseconds < 1_000, "the probe counted the held opening: \(milliseconds) ms")
    }

    @Test("A store is copied with its write-ahead log and journal, not its lock")
    func copiesTheStore() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.sqlite").path
        let manager = FileManager.default
        for suffix in ["", "-wal", ".lock"] { _ = manager.createFile(atPath: source + suffix, contents: Data(suffix.utf8)) }
        try manager.createDirectory(atPath: source + ".journal", withIntermediateDirectories: true)
        _ = manager.createFile(atPath: source + ".journal/segment-1.journal", contents: Data("records".utf8))
        let copy = folder.appendingPathComponent("copy.sqlite").path
        try StartupPhase.copyStore(from: source, to: copy)
        #expect(manager.contents(atPath: copy + "-wal") == Data("-wal".utf8))
        #expect(manager.contents(atPath: copy + ".journal/segment-1.journal") == Data("records".utf8))
        #expect(!manager.fileExists(atPath: copy + ".lock"))
    }
}
