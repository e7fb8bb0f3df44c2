/// Where a reporter hands its events: the console, a dispatcher, a vendor SDK, a test recorder.
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
