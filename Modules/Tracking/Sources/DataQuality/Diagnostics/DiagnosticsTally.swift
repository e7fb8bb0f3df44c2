import Tracking

/// The stage that counts, in ``Diagnostics``, every event handed to the plugins (`sent`)
/// and every one carrying a flag (`flagged`). Place it last among the processors.
struct DiagnosticsTally: EventProcessor {
    private let diagnostics: Diagnostics

    /// Creates the stage.
    public init(_ diagnostics: Diagnostics) { self.diagnostics = diagnostics }

    /// Counts `event` as sent, and as flagged when it carries a flag, under one lock; never
    /// stops it.
    public func process(_ event: inout TrackedEvent) -> Bool {
        diagnostics.increment(.sent, and: event.flags.isEmpty ? nil : .flagged)
        return true
    }
}
