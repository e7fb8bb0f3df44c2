import Foundation

/// Context that many events share: what a hydration stage computes once per process (app, OS,
/// device, library, installation) or once per session, instead of once per event.
///
/// An event refers to it (``TrackedEvent/sharedContext``) rather than copying it, so adding it
/// costs one reference per event; a store keeps its values once, not once per event.
///
/// The full context an event carries is these values with the event's own
/// ``TrackedEvent/eventContext`` on top (see ``merged(with:)``).
public final class SharedContext: Sendable, Hashable, CustomStringConvertible {
    /// The shared values.
    public let values: UserData

    /// The id of the redaction matcher (a `Redactor`'s) that found nothing to redact in
    /// ``values`` when they were made, 0 when none looked: that redactor passes this context
    /// on as it is without looking it up. Not part of the context's value.
    package let screenedBy: UInt64

    /// Shares `values`.
    public init(_ values: UserData) {
        self.values = values
        screenedBy = 0
    }

    /// Shares `values`, which the redaction matcher `screenedBy` found nothing to redact in.
    package init(_ values: UserData, screenedBy: UInt64) {
        self.values = values
        self.screenedBy = screenedBy
    }

    /// These values with `own` on top: a key in both takes `own`'s value, except when both
    /// values are objects, whose members are merged the same way (one level deep), so an event
    /// can add `eventIndex` to a shared `session` object without repeating the rest of it.
    public func merged(with own: UserData) -> UserData {
        Self.merge(values, own)
    }

    /// `base` with `own` on top, objects merged one level deep (see ``merged(with:)``).
    public static func merge(_ base: UserData, _ own: UserData) -> UserData {
        if own.isEmpty { return base }
        if base.isEmpty { return own }
        var result = base
        for (key, value) in own {
            if case .object(let ownMembers) = value, case .object(var baseMembers)? = result[key] {
                baseMembers.merge(ownMembers) { _, new in new }
                result[key] = .object(baseMembers)
            } else {
                result[key] = value
            }
        }
        return result
    }

    /// Equal when the values are.
    public static func == (lhs: SharedContext, rhs: SharedContext) -> Bool { lhs === rhs || lhs.values == rhs.values }

    /// Hashes the values.
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    /// The values, as JSON.
    public var description: String { JSONText.encode(.object(values)) }
}
