import Tracking

/// The stage that counts, in ``Diagnostics``, every event handed to the destinations (`sent`)
/// and every one carrying a flag (`flagged`). Place it last among the processors.
struct DiagnosticsTally: EventProcessor {
    private let diagnostics: Diagnostics

    /// Creates the stage.
    public init(_ diagnostics: Diagnostics) { self.diagnostics = diagnostics }

    /// Counts the event; never returns `nil`.
    public func process(_ event: TrackedEvent) -> TrackedEvent? {
        diagnostics.increment(.sent)
        if !event.flags.isEmpty { diagnostics.increment(.flagged) }
        return event
    }
}
