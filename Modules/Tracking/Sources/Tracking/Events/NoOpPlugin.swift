/// A plugin that does nothing: the reporter to inject where events do not matter.
public struct NoOpPlugin: EventReporterPlugin {
    /// Creates the plugin.
    public init() {}
    /// Ignores the event.
    public func send(_ event: TrackedEvent) -> Receipt? { nil }
}
