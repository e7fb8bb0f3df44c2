import Dispatcher
import Foundation
import Tracking

/// The receipts each plugin returned for the events sent while someone watches the inspector,
/// newest ``capacity`` events kept. Nothing is recorded while nobody is connected.
final class InspectorReceipts: Sendable {
    /// How many events' receipts are kept.
    static let capacity = 5_000

    private struct State {
        var receipts: [UUID: [Receipt]] = [:]
        var order: [UUID] = []
        var oldest = 0
    }

    private let state = LockedValue(State())

    /// Adds `receipt` to its event's list.
    func record(_ receipt: Receipt) {
        state.withLock { state in
            if state.receipts[receipt.eventID] == nil {
                if state.order.count < Self.capacity {
                    state.order.append(receipt.eventID)
                } else {
                    state.receipts[state.order[state.oldest]] = nil
                    state.order[state.oldest] = receipt.eventID
                    state.oldest = (state.oldest + 1) % Self.capacity
                }
            }
            state.receipts[receipt.eventID, default: []].append(receipt)
        }
    }

    /// The receipts recorded for `id`, in the plugins' order.
    func receipts(of id: UUID) -> [Receipt] { state.withLock { $0.receipts[id] ?? [] } }
}

/// One of the runtime's plugins, its receipts copied to ``InspectorReceipts`` while the
/// inspector is watched: one check of the server's state per send otherwise.
struct InspectorReceiptTap: EventReporterPlugin {
    let plugin: any EventReporterPlugin
    let server: InspectorServer
    let log: InspectorReceipts

    func send(_ event: TrackedEvent) -> Receipt? {
        let receipt = plugin.send(event)
        if let receipt, server.isWatched { log.record(receipt) }
        return receipt
    }

    func send(contentsOf events: [TrackedEvent]) -> [Receipt] {
        let receipts = plugin.send(contentsOf: events)
        if server.isWatched { receipts.forEach(log.record) }
        return receipts
    }
}
