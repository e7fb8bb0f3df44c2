@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A consent decision reaches its held rows through the partial index, whatever else the store holds.
@Suite("A consent decision costs what it touches", .serialized, .runsAlone)
struct ConsentScalingTests {
    private func held(_ index: Int, category: String) -> EncodedEvent {
        let date = Date()
        return EncodedEvent(TrackedEvent(
            id: EventID.make(at: date), timestamp: date, category: category, name: "promo", action: "view",
            userData: ["index": .int(index)], flags: [EventFlag(code: "awaiting_consent", detail: category)]))
    }

    /// Seconds taken by `decisions` decisions (granted and denied in turn, each on a category of
    /// one held event) on a store that also holds `unrelated` pending events.
    private func secondsForDecisions(_ decisions: Int, unrelated: Int) throws -> TimeInterval {
        let folder = try TemporaryDirectory(prefix: "ConsentScaling")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        defer { store.close() }
        for start in stride(from: 0, to: unrelated, by: 1_000) {
            try store.insert((start..<min(unrelated, start + 1_000)).map { sampleEvent($0) })
        }
        try store.insert((0..<decisions).map { held($0, category: "Consent\($0)") })
        let started = Date()
        for index in 0..<decisions {
            let touched = index.isMultiple(of: 2)
                ? try store.releaseHeld(category: "Consent\(index)") : try store.deleteHeld(category: "Consent\(index)")
            #expect(touched == 1)
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(store.counts().held == 0 && store.counts().pending == unrelated + decisions / 2)
        return seconds
    }

    @Test("Release and delete find held rows by the index, not by a scan")
    func decisionsUseTheHeldIndex() throws {
        let folder = try TemporaryDirectory(prefix: "ConsentScaling")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        defer { store.close() }
        for sql in [EventStoreSchema.heldInCategory, EventStoreSchema.deleteHeld] {
            let plan: [String] = try store.withDatabase { database in
                let statement = try database.prepare("EXPLAIN QUERY PLAN " + sql)
                var details: [String] = []
                while try statement.step() { details.append(statement.string(3) ?? "") }
                return details
            }
            #expect(plan.contains { $0.contains("events_held") }, "\(sql): \(plan)")
        }
    }

    @Test("400 decisions beside 40,000 unrelated events take about as long as beside none")
    func decisionsDoNotScaleWithTheStore() throws {
        let reference = try secondsForDecisions(400, unrelated: 0)
        let crowded = try secondsForDecisions(400, unrelated: 40_000)
        // A scan per decision reads every unrelated row: many times the reference.
        #expect(crowded < reference * 3 + 0.25, "reference \(reference) s, beside 40,000 events \(crowded) s")
    }
}
