import Foundation
import Tracking

/// A plugin that records every event and receipt, for tests. Thread-safe.
///
/// ```swift
/// let recorder = RecordingPlugin()
/// let basket = BasketStepper(reporter: EventReporter(plugins: [recorder]))
/// basket.increment()
/// try recorder.expect(Cart.self, [(.add, .select)])
/// ```
public final class RecordingPlugin: EventReporterPlugin {
    private struct Recorded {
        var events: [TrackedEvent] = []
        var receipts: [Receipt] = []
    }

    private let recorded = LockedValue(Recorded())
    private let name: String

    /// Creates a recorder.
    /// - Parameter name: the plugin name its receipts carry. Defaults to `"recording"`.
    public init(name: String = "recording") { self.name = name }

    /// Every event received, in order.
    public var events: [TrackedEvent] { recorded.withLock { $0.events } }

    /// Every receipt this plugin issued, in order.
    public var receipts: [Receipt] { recorded.withLock { $0.receipts } }

    /// Records the event and returns a receipt whose form is the event's one-line description.
    public func send(_ event: TrackedEvent) -> Receipt? {
        let receipt = Receipt(plugin: name, eventID: event.id, form: event.description)
        recorded.withLock {
            $0.events.append(event)
            $0.receipts.append(receipt)
        }
        return receipt
    }

    /// Forgets everything recorded.
    public func reset() {
        recorded.withLock {
            $0.events.removeAll()
            $0.receipts.removeAll()
        }
    }

    /// The recorded events of one feature (those whose category is the feature's), in order.
    public func events<T: EventType>(of feature: T.Type) -> [TrackedEvent] {
        events.filter { $0.category == T.category }
    }
}
