import DataQuality
import Foundation
import Tracking

/// The data-quality stack in use, and, while the store cannot be read yet (iOS before the first
/// unlock), the stage that keeps events waiting until it can.
///
/// While waiting, every event is kept as sent (before any stage: no identity, session or
/// privacy decision can be made without the stored state), up to `capacity`, and stopped here.
/// When the store opens, ``beginSwitch()`` makes callers asking for ``stack`` wait (the provisional
/// stack's changes are being written to the store and the real stack built over it), then
/// ``open(with:deliver:)`` installs the real stack and runs the waiting
/// events, oldest first, through its stages to the plugins; events sent meanwhile queue behind
/// them. From then on this stage forwards to the stack's stages. A runtime that opened its
/// store at start uses the stack's stages directly, without this one.
final class StartGate: EventProcessor {
    private struct State {
        /// The stack in use; `nil` until first asked for while waiting (see ``stack``).
        var current: DataQualityStack?
        var waiting: [TrackedEvent] = []
        var phase: Phase
        var refused = 0
        /// Whether a sender finding the gate full waits for room (the store is being opened and
        /// will be soon) rather than having its event refused (it may be hours: protected data).
        var waitsForRoom: Bool
    }

    private let state: LockedValue<State>
    /// The most events kept waiting.
    let capacity: Int

    /// `switching`: the real stack is being built; ``stack`` waits for it.
    private enum Phase { case waiting, switching, replaying, open }

    /// The longest a sender waits for room (see `waitsForRoom`) before its event is refused.
    static let roomTimeout: TimeInterval = 10

    /// The longest ``stack`` waits for the real stack while switching, in case the switch calls
    /// back into it on its own thread.
    static let switchTimeout: TimeInterval = 10

    /// Makes the stack in use while waiting, the first time it is asked for.
    private let makeStack: @Sendable () -> DataQualityStack

    /// Test seam: run by the start once the real stack is made, before ``open(with:deliver:)``.
    let whileSwitching = LockedValue<(@Sendable () -> Void)?>(nil)

    /// A gate over `stack`, keeping events waiting or open. While waiting, the stack (a
    /// provisional one) is made by `stack` the first time it is asked for, under the gate's lock,
    /// so that a start where the app only sends never pays for it.
    /// - Parameter waitsForRoom: a sender finding it full waits (at most ``roomTimeout``) until
    ///   the store opens, instead of having its event refused: for a store being opened now.
    init(stack: @escaping @Sendable () -> DataQualityStack, waiting: Bool, capacity: Int, waitsForRoom: Bool = false) {
        state = LockedValue(State(current: waiting ? nil : stack(), phase: waiting ? .waiting : .open, waitsForRoom: waitsForRoom))
        makeStack = stack
        self.capacity = max(0, capacity)
    }

    /// Stops senders from waiting for room: the store could not be opened, and it may be long.
    func stopWaitingForRoom() {
        state.withLockWakingWaiters { $0.waitsForRoom = false }
    }

    /// The stack in use: the provisional one while waiting, made now if it was not yet; while
    /// switching, it waits for the real one (so that nothing is written to the provisional one
    /// after its changes were written to the store).
    var stack: DataQualityStack {
        var deadline: Date?
        while true {
            let found = state.withLock { state -> DataQualityStack? in
                if state.phase == .switching, deadline.map({ Date() < $0 }) ?? true { return nil }
                if let current = state.current { return current }
                let made = makeStack()
                state.current = made
                return made
            }
            if let found { return found }
            let until = deadline ?? Date(timeIntervalSinceNow: Self.switchTimeout)
            deadline = until
            state.wait(until: { $0.phase != .switching }, deadline: until)
        }
    }

    /// Whether events go through the real stack's stages now.
    var isOpen: Bool { state.withLock { $0.phase == .open } }

    /// How many events were refused, the gate being full, so far.
    var refusedCount: Int { state.withLock { $0.refused } }

    /// Keeps `event` waiting (stopping it here), or runs the stack's stages on it.
    func process(_ event: inout TrackedEvent) -> Bool { process(&event, mayWaitForRoom: true) }

    /// Keeps `event` waiting, or runs the stack's stages on it; when full, a sender that may not
    /// wait for room has its event refused (and counted) at once.
    func process(_ event: inout TrackedEvent, mayWaitForRoom: Bool) -> Bool {
        let capacity = self.capacity
        var deadline: Date?
        var stages: [any EventProcessor]?
        while true {
            let full = state.withLock { state -> Bool in
                if state.phase == .open, let current = state.current {
                    stages = current.processors
                    return false
                }
                if state.waiting.count < capacity {
                    state.waiting.append(event)
                    return false
                }
                guard mayWaitForRoom, state.waitsForRoom, deadline.map({ Date() < $0 }) ?? true else {
                    state.refused += 1
                    return false
                }
                return true
            }
            guard full else { break }
            let until = deadline ?? Date(timeIntervalSinceNow: Self.roomTimeout)
            deadline = until
            state.wait(until: { $0.phase == .open || $0.waiting.count < capacity || !$0.waitsForRoom }, deadline: until)
        }
        guard let stages else { return false }
        for stage in stages where !stage.process(&event) { return false }
        return true
    }

    /// Drops the events kept waiting (an opt-out or a purge made before the store opened), so
    /// that none of them goes through the stages afterwards.
    func discardWaiting() {
        state.withLockWakingWaiters { $0.waiting.removeAll() }
    }

    /// Makes callers asking for ``stack`` wait until ``open(with:deliver:)`` installs the real
    /// one; events sent meanwhile keep waiting. Call once, before the provisional stack's
    /// changes are written to the store.
    func beginSwitch() {
        state.withLock { if $0.phase == .waiting { $0.phase = .switching } }
    }

    /// Installs `stack` and hands the waiting events, through its stages, to `deliver`, oldest
    /// first, until none is left; then opens. Call once.
    /// - Returns: how many waiting events were handed over.
    @discardableResult
    func open(with stack: DataQualityStack, deliver: (TrackedEvent) -> Void) -> Int {
        state.withLockWakingWaiters {
            $0.current = stack
            $0.phase = .replaying
        }
        var handed = 0
        while let batch = nextWaiting() {
            for var event in batch {
                guard stack.processors.allSatisfy({ $0.process(&event) }) else { continue }
                deliver(event)
                handed += 1
            }
        }
        return handed
    }

    /// The events kept waiting so far, taken out; `nil` (and open) when there are none.
    private func nextWaiting() -> [TrackedEvent]? {
        state.withLockWakingWaiters { state in
            guard !state.waiting.isEmpty else {
                state.phase = .open
                return nil
            }
            defer { state.waiting.removeAll() }
            return state.waiting
        }
    }
}

/// The gate's stage for events the runtime sends itself (diagnostics): when the gate is full it
/// refuses them at once rather than waiting for room, which could be on the queue opening the store.
struct NonWaitingGate: EventProcessor {
    let gate: StartGate

    func process(_ event: inout TrackedEvent) -> Bool { gate.process(&event, mayWaitForRoom: false) }
}
