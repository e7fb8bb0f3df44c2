@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// A sender finds the encoded form of the last event's shared context under the Dispatcher's
/// lock: events switching between shared contexts, or carrying one too deep to journal
/// directly, are each stored with their own full context.
@Suite("Dispatcher: the sender's last shared context")
struct SenderSharedContextTests {
    private static let first = SharedContext(["session": .object(["id": "s-1"]), "app": "Shop"])
    private static let second = SharedContext(["session": .object(["id": "s-2"]), "app": "Shop"])

    private static func tooDeep() -> SharedContext {
        var deep: UserDataValue = "bottom"
        for _ in 0..<(UserDataValue.maximumDepth + 3) { deep = .array([deep]) }
        return SharedContext(["deep": deep])
    }

    private func event(_ index: Int, _ shared: SharedContext?) -> TrackedEvent {
        TrackedEvent(category: "Checkout", name: "pay", action: "tap", userData: ["i": .int(index)],
                     context: ["own": .int(index)], sharedContext: shared)
    }

    @Test func eventsSwitchingSharedContextsKeepEachTheirOwn() async throws {
        let directory = try TemporaryDirectory(prefix: "sender-shared")
        defer { directory.remove() }
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: directory.file("store.sqlite").path))
        let deep = Self.tooDeep()
        let contexts: [SharedContext?] = [Self.first, Self.first, Self.second, Self.first, nil, Self.second, deep, Self.second]
        let sent = contexts.enumerated().map { event($0.offset, $0.element) }
        for event in sent { #expect(dispatcher.send(event) != nil) }
        #expect(await dispatcher.drain(timeout: 20).persisted)
        let records = try dispatcher.records()
        await dispatcher.close()
        #expect(records.count == sent.count)
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        for (index, event) in sent.enumerated() {
            let record = try #require(byID[event.id])
            if contexts[index] === deep {
                #expect(record.flags.contains(EventFlag.contextTruncated.description), "cut, through the encoded path")
                #expect(record.context["own"] == .int(index))
            } else {
                #expect(record.context == event.context, "event \(index)")
            }
        }
    }
}
