import Benchmarks
import Foundation
import Testing

@Suite("WirePhase: bytes on the wire, gzip against plain")
struct WirePhaseTests {
    @Test("hydrated events travel compressed: far fewer bytes than plain, and the encoder's time is counted")
    func gzipBeatsPlain() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wire-phase-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let figures = try await WirePhase(events: 1_000, directory: directory).run()
        // 1,000 events at the default batch size of 100: ten requests.
        #expect(figures.requests == 10)
        #expect(figures.plainBytesPerEvent > 300, "hydrated Segment messages: \(figures.plainBytesPerEvent) B")
        #expect(figures.wireBytesPerEvent < figures.plainBytesPerEvent / 3, "\(figures)")
        #expect(figures.compressionNanosecondsPerEvent > 0)
    }
}
