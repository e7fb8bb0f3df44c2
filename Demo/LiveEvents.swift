import Tracking

/// A name or an action read from a line of `demo live`'s input, as sent.
struct LiveWord: RawRepresentable, Sendable {
    let rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
}

/// The categories `demo live` sends, each an event type whose names and actions are the
/// input's own words (the demo's data contract then flags those it does not know).
enum LiveEvents {
    /// Basket events.
    enum Basket: EventType {
        typealias Name = LiveWord
        typealias Action = LiveWord
    }

    /// Wishlist events.
    enum Wishlist: EventType {
        typealias Name = LiveWord
        typealias Action = LiveWord
    }

    /// Onboarding events.
    enum Onboarding: EventType {
        typealias Name = LiveWord
        typealias Action = LiveWord
    }

    /// A category made of markup and quotes, for checking that tools show event text as text.
    enum Probe: EventType {
        typealias Name = LiveWord
        typealias Action = LiveWord
        static let category = #"Probe<img src=x onerror="window.__pwned=4">'"#
    }

    /// The words accepted as an input line's `category`.
    static let categories = ["Basket", "Wishlist", "Onboarding", "Probe"]
}
