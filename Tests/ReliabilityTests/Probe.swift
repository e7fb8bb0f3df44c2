import Tracking

/// The feature the reliability suite sends its events as.
enum Probe: EventType {
    enum Name: String, Sendable, CaseIterable { case tap, view, purchase }
    enum Action: String, Sendable, CaseIterable { case open, close, other }
    static let category = "Probe"
}
