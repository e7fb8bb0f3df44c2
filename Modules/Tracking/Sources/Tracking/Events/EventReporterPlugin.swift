/// A destination for events: the console, a store, a vendor SDK, a test recorder.
///
/// `send` is called synchronously on the sender's thread, so it must be quick and thread-safe;
/// a plugin with slow work hands it to its own queue.
public protocol EventReporterPlugin: Sendable {
    /// Handles one event.
    /// - Returns: a receipt for the event, or `nil` when this plugin ignores it.
    func send(_ event: TrackedEvent) -> Receipt?

    /// Handles several events that were sent together, in order; a plugin that can persist or
    /// forward them as one unit overrides this. Processors have already run on each event.
    /// - Returns: a receipt for each event the plugin handled, in order.
    func send(contentsOf events: [TrackedEvent]) -> [Receipt]
}

extension EventReporterPlugin {
    /// Handles several events; the default sends them one by one through ``send(_:)``.
    public func send(contentsOf events: [TrackedEvent]) -> [Receipt] { events.compactMap { send($0) } }
}

/// The stage before destinations: enriches, rewrites or filters an event.
///
/// Processors run in order; each sees what the previous one returned. Global context, consent,
/// redaction, contract validation and duplicate detection are processors.
public protocol EventProcessor: Sendable {
    /// Returns the event to pass on (possibly changed), or `nil` to stop it here.
    func process(_ event: TrackedEvent) -> TrackedEvent?
}

/// A processor made from a closure.
public struct ClosureProcessor: EventProcessor {
    private let body: @Sendable (TrackedEvent) -> TrackedEvent?

    /// Creates a processor that runs `body`.
    public init(_ body: @escaping @Sendable (TrackedEvent) -> TrackedEvent?) { self.body = body }

    /// Runs the closure.
    public func process(_ event: TrackedEvent) -> TrackedEvent? { body(event) }
}

/// A plugin that does nothing: the reporter to inject where events do not matter.
public struct NoOpPlugin: EventReporterPlugin {
    /// Creates the plugin.
    public init() {}
    /// Ignores the event.
    public func send(_ event: TrackedEvent) -> Receipt? { nil }
}
