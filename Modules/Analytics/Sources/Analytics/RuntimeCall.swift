import Tracking

/// The type of the runtime's own `identify` and `screen` calls. Their events carry the reserved
/// categories of ``Tracking/EventKind`` (`$identify`, `$screen`), so this category and these
/// names are never sent.
enum RuntimeCall: EventType {
    /// Unused: identify and screen name their events themselves.
    enum Name: String, Sendable { case identify, screen }
    /// Unused: identify and screen name their actions themselves.
    enum Action: String, Sendable { case identify, view }
}
