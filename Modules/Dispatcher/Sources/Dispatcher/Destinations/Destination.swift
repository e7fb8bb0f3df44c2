import Foundation

/// Where delivered events go: a collector speaking one wire format.
///
/// The Dispatcher calls ``deliver(_:sentAt:)`` with one batch at a time (one request in
/// flight), and settles every event of the batch from the ``DeliveryResult``.
public protocol Destination: Sendable {
    /// A short name for reports and the timeline, for example `"segment"`.
    var name: String { get }
    /// The byte budget for one batch, counted as the sum of
    /// ``StoredEvent/approximateSize``; the worker claims batches within it.
    var maxBatchBytes: Int { get }
    /// Sends a batch and says what became of it. Never throws: failures are outcomes.
    /// - Parameters:
    ///   - batch: the events, oldest first.
    ///   - sentAt: the moment of sending, written into payloads that carry it.
    func deliver(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult
}
