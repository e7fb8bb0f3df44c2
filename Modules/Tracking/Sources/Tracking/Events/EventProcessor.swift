/// The stage before destinations: enriches, rewrites or filters an event.
///
/// Processors run in order; each sees what the previous one returned. Global context, consent,
/// redaction, contract validation and duplicate detection are processors.
///
/// A stage on the hot path adopts ``InPlaceEventProcessor`` instead: it changes the event where
/// it is, so passing it on copies nothing.
public protocol EventProcessor: Sendable {
    /// Returns the event to pass on (possibly changed), or `nil` to stop it here.
    func process(_ event: TrackedEvent) -> TrackedEvent?

    /// Changes `event` where it is; returns `false` to stop it here. By default, through
    /// ``process(_:)``.
    func processInPlace(_ event: inout TrackedEvent) -> Bool
}

extension EventProcessor {
    /// Runs ``process(_:)`` and stores what it returns in `event`.
    public func processInPlace(_ event: inout TrackedEvent) -> Bool {
        guard let next = process(event) else { return false }
        event = next
        return true
    }
}
