import DataQuality
import Foundation
import Tracking

/// The data-quality stack in use, and, while the store cannot be read yet (iOS before the first
/// unlock), the stage that keeps events waiting until it can.
///
/// While waiting, every event is kept as sent (before any stage: no identity, session or
/// privacy decision can be made without the stored state), up to `capacity`, and stopped here.
/// When the store opens, ``open(with:deliver:)`` installs the real stack and runs the waiting
/// events, oldest first, through its stages to the plugins; events sent meanwhile queue behind
/// them. From then on this stage forwards to the stack's stages. A runtime that opened its
/// store at start uses the stack's stages directly, without this one.
final class StartGate: EventProcessor {
    private struct State {
        var current: DataQualityStack
        var waiting: [TrackedEvent] = []
        var phase: Phase
        var refused = 0
    }

    private let state: LockedValue<State>
    /// The most events kept waiting.
    let capacity: Int

    private enum Phase { case waiting, replaying, open }

    /// A gate over `stack`: keeping events waiting, or open.
    init(stack: DataQualityStack, waiting: Bool, capacity: Int) {
        state = LockedValue(State(current: stack, phase: waiting ? .waiting : .open))
        self.capacity = max(0, capacity)
    }

    /// The stack in use: the provisional one while waiting.
    var stack: DataQualityStack { state.withLock { $0.current } }

    /// Whether events go through the real stack's stages now.
    var isOpen: Bool { state.withLock { $0.phase == .open } }

    /// How many events were refused, the gate being full, so far.
    var refusedCount: Int { state.withLock { $0.refused } }

    /// Keeps `event` waiting (stopping it here), or runs the stack's stages on it.
    func process(_ event: inout TrackedEvent) -> Bool {
        let capacity = self.capacity
        let stages: [any EventProcessor]? = state.withLock { state in
            if state.phase == .open { return state.current.processors }
            if state.waiting.count < capacity { state.waiting.append(event) } else { state.refused += 1 }
            return nil
        }
        guard let stages else { return false }
        for stage in stages where !stage.process(&event) { return false }
        return true
    }

    /// Installs `stack` and hands the waiting events, through its stages, to `deliver`, oldest
    /// first, until none is left; then opens. Call once.
    /// - Returns: how many waiting events were handed over.
    @discardableResult
    func open(with stack: DataQualityStack, deliver: (TrackedEvent) -> Void) -> Int {
        state.withLock {
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
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.phase = .open
                return nil
            }
            defer { state.waiting.removeAll() }
            return state.waiting
        }
    }
}
