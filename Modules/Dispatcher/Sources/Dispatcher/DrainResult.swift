/// What ``Dispatcher/drain(timeout:isolation:)`` achieved before it returned.
public struct DrainResult: Sendable, Equatable {
    /// Everything sent before the call reached the SQLite store.
    public var persisted: Bool
    /// A delivery round finished (or there was no destination).
    public var deliveryAttempted: Bool
    /// The timeout passed first.
    public var timedOut: Bool
    /// The delivery round's report; when no round ran, an empty report whose
    /// ``DeliveryReport/stopReason`` and ``DeliveryReport/lastError`` say why (no destination:
    /// an empty report, ``DeliveryStopReason/drained``).
    public var report: DeliveryReport
}
