import Foundation
import Tracking

/// What a ``ContextHydrator`` keeps between events, under one lock: the shared context made for
/// the last ``SharedContextKey`` (as a ``LastValueCache`` keeps it), and the last own context it
/// made (`[session: [eventIndex: n]]`), whose storage the next event's is made in.
///
/// The usual event (the session's shared context is cached, the event has no context of its
/// own yet) takes both under one lock: ``lookUp(_:eventIndex:)``.
final class HydrationMemory: Sendable {
    private struct State {
        /// The last key, and the shared context made for it.
        var lastKey: SharedContextKey?
        var lastValue: SharedContext?
        /// Counts ``reset()`` calls: a shared context made across one is not kept.
        var generation = 0
        /// The last own context made (see ``sessionContext(eventIndex:)``).
        var recycled: UserData?
    }

    private let state = LockedValue(State())

    /// What ``lookUp(_:eventIndex:)`` found.
    struct Found {
        /// The shared context cached for the key, `nil` when another key's is.
        let shared: SharedContext?
        /// The own context of the event index asked for, made when `shared` was found.
        let own: UserData?
        /// The generation the lookup saw, for ``keep(_:for:madeIn:)``.
        let generation: Int
    }

    /// The shared context cached for `key` and, when there is one and `eventIndex` is given,
    /// the own context `[session: [eventIndex: eventIndex]]`, both under one lock.
    func lookUp(_ key: SharedContextKey, eventIndex: Int?) -> Found {
        lookUp(eventIndex: eventIndex) { $0.matches(key) }
    }

    /// Like ``lookUp(_:eventIndex:)`` for the key of `sessionID` and the identifiers the kept
    /// shared context was made with: for a hydrator whose identity resets this memory on every
    /// change (``Identity/onChange(_:)``), those are the identity's current ones while kept, so
    /// the usual event reads no identifiers.
    func lookUp(sessionID: UUID?, eventIndex: Int?) -> Found {
        lookUp(eventIndex: eventIndex) { $0.sessionID == sessionID }
    }

    /// The kept shared context when its key passes `matches`, and the own context of
    /// `eventIndex` made with it, under one lock.
    private func lookUp(eventIndex: Int?, matching matches: (SharedContextKey) -> Bool) -> Found {
        state.withLock { state in
            // Compared where it lies: unwrapping the optional key would copy it.
            guard state.lastKey.map(matches) == true, let shared = state.lastValue else {
                return Found(shared: nil, own: nil, generation: state.generation)
            }
            let own = eventIndex.map { Self.sessionContext(eventIndex: $0, recycling: &state.recycled) }
            return Found(shared: shared, own: own, generation: state.generation)
        }
    }

    /// Keeps `shared`, made for `key`, for the next lookups, unless a ``reset()`` came since the
    /// lookup of `generation`.
    func keep(_ shared: SharedContext, for key: SharedContextKey, madeIn generation: Int) {
        state.withLock { state in
            if state.generation == generation { (state.lastKey, state.lastValue) = (key, shared) }
        }
    }

    /// Forgets the shared context: the next lookup finds none.
    func reset() {
        state.withLock { state in
            (state.lastKey, state.lastValue) = (nil, nil)
            state.generation &+= 1
        }
    }

    /// `[session: [eventIndex: eventIndex]]`, on its own lock (the unusual path).
    func sessionContext(eventIndex: Int) -> UserData {
        state.withLock { Self.sessionContext(eventIndex: eventIndex, recycling: &$0.recycled) }
    }

    /// `[session: [eventIndex: 0]]`, the own context of an event with no other keys.
    private static let sessionContextTemplate: UserData = [ContextKey.session: .object(["eventIndex": .int(0)])]

    /// `[session: [eventIndex: eventIndex]]`, made in the storage of the last one made (`kept`)
    /// once the event it went to is gone (the usual case: the plugins keep no event): its one
    /// value is replaced in place, which hashes no key and allocates nothing. While that event
    /// is alive, its context is shared, and changing it copies it (as from the template the
    /// first time): value semantics, so no event's context ever changes under it.
    private static func sessionContext(eventIndex: Int, recycling kept: inout UserData?) -> UserData {
        var context = kept ?? sessionContextTemplate
        // Out of the box, so that the box is not a second reference to the storage.
        kept = nil
        let sessionSlot = context.startIndex
        var session = UserDataValue.null
        swap(&session, &context.values[sessionSlot])
        guard case .object(var members) = session, members.count == 1 else {
            return sessionContext(from: sessionContextTemplate, eventIndex: eventIndex)
        }
        // The members are now referred to by `members` alone.
        session = .null
        members.values[members.startIndex] = .int(eventIndex)
        context.values[sessionSlot] = .object(members)
        kept = context
        return context
    }

    /// `[session: [eventIndex: eventIndex]]` made from `template`'s copies.
    private static func sessionContext(from template: UserData, eventIndex: Int) -> UserData {
        var context = template
        let sessionSlot = context.startIndex
        guard case .object(var members) = context.values[sessionSlot] else { return context }
        members.values[members.startIndex] = .int(eventIndex)
        context.values[sessionSlot] = .object(members)
        return context
    }
}
