/// What ``Dispatcher/drain(timeout:)`` achieved before it returned.
public struct DrainResult: Sendable, Equatable {
    /// Everything sent before the call reached the SQLite store.
    public var persisted: Bool
    /// A delivery attempt finished (or there was no destination or nothing to deliver).
    public var deliveryAttempted: Bool
    /// The timeout passed first.
    public var timedOut: Bool
    /// The delivery round's report, when one ran.
    public var report: DeliveryReport?
}
