/// The stage before destinations: enriches, rewrites or filters an event.
///
/// Processors run in order; each sees what the previous one returned. Global context, consent,
/// redaction, contract validation and duplicate detection are processors.
public protocol EventProcessor: Sendable {
    /// Returns the event to pass on (possibly changed), or `nil` to stop it here.
    func process(_ event: TrackedEvent) -> TrackedEvent?
}
