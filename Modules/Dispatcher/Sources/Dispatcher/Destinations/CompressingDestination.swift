import Foundation

/// A ``Destination`` whose request bodies may travel compressed (see ``RequestCompression``).
///
/// The Dispatcher calls ``deliver(_:sentAt:compression:)``: with ``compression``, or with
/// ``RequestCompression/plain`` once the collector at ``endpointIdentity`` has refused a
/// compressed body (remembered in the store, so a restart remembers too).
public protocol CompressingDestination: Destination {
    /// The compression this destination is configured with.
    var compression: RequestCompression { get }
    /// Identifies the endpoint (its URL): a refusal remembered for one endpoint does not apply
    /// to another.
    var endpointIdentity: String { get }
    /// Sends the batch with `compression`. When the collector refuses the compressed body, the
    /// batch is sent again plain at once, and the result says so
    /// (``DeliveryResult/compressionRefused``).
    func deliver(_ batch: [StoredEvent], sentAt: Date, compression: RequestCompression) async -> DeliveryResult
}
