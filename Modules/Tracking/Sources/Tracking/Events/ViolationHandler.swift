import Foundation

/// What a reporter does at once when an event is sent with a caller's mistake: a name/action
/// pair the feature declared invalid, a reserved category (``EventFlag/reservedCategory(_:)``)
/// or an empty screen name (``EventFlag/emptyScreenName``).
///
/// The event is delivered either way, carrying the flag (for example
/// ``EventFlag/invalidPair(name:action:)``); this decides who hears about it immediately.
public struct ViolationHandler: Sendable {
    /// Receives the flagged event and the flag.
    public let report: @Sendable (TrackedEvent, EventFlag) -> Void

    /// Creates a handler from a closure.
    public init(_ report: @escaping @Sendable (TrackedEvent, EventFlag) -> Void) { self.report = report }

    /// In debug builds, writes one line to standard error; in release builds, stays silent
    /// (the flag still travels with the event to the store and the wire).
    public static let standard = ViolationHandler { event, flag in
        #if DEBUG
        let line = TerminalText.escaping("Tracking: \(event.category) sent an invalid event: \(flag)")
        FileHandle.standardError.write(Data((line + "\n").utf8))
        #endif
    }

    /// Does nothing at once.
    public static let silent = ViolationHandler { _, _ in }
}
