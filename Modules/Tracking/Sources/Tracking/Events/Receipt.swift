import Foundation

/// Proof that a plugin handled an event: which plugin, which event, when, and the
/// provider-specific form it produced (a console line, a JSON payload, a store row id).
public struct Receipt: Sendable, Equatable, Codable {
    /// The plugin's name, for example `"console"` or `"dispatcher"`.
    public var plugin: String
    /// The event it handled.
    public var eventID: UUID
    /// When it handled it.
    public var handledAt: Date
    /// What it produced, in the provider's own form.
    public var form: String

    /// Creates a receipt.
    public init(plugin: String, eventID: UUID, handledAt: Date = Date(), form: String) {
        self.plugin = plugin
        self.eventID = eventID
        self.handledAt = handledAt
        self.form = form
    }
}
