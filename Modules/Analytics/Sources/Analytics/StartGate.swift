import DataQuality
import Foundation
import Tracking

/// The data-quality stack in use, and, while the store cannot be read yet (iOS before the first
/// unlock), the stage that holds events until it can.
///
/// While waiting, every event is kept as sent (before any stage: no identity, session or
/// privacy decision can be made without the stored state), up to `capacity`, and stopped here.
/// When the store opens, ``open(with:deliver:)`` installs the real stack and runs the held
/// events, oldest first, through its stages to the plugins; events sent meanwhile queue behind
/// them. From then on this stage forwards to the stack's stages. A runtime that opened its
/// store at start uses the stack's stages directly, without this one.
final class StartGate: EventProcessor, @unchecked Sendable {
    // Safe: every stored `var` is only touched while holding `lock`.
    private let lock = NSLock()
    private var current: DataQualityStack
    private var held: [TrackedEvent] = []
    private var phase: Phase
    private var refused = 0
    /// The most events held while waiting.
    let capacity: Int

    private enum Phase { case waiting, replaying, open }

    /// A gate over `stack`: holding events (`waiting`), or open.
    init(stack: DataQualityStack, waiting: Bool, capacity: Int) {
        current = stack
        phase = waiting ? .waiting : .open
        self.capacity = max(0, capacity)
    }

    /// The stack in use: the provisional one while waiting.
    var stack: DataQualityStack { lock.withLock { current } }

    /// Whether events go through the real stack's stages now.
    var isOpen: Bool { lock.withLock { phase == .open } }

    /// How many events were refused, the gate being full, so far.
    var refusedCount: Int { lock.withLock { refused } }

    /// Holds `event` while waiting (stopping it here), or runs the stack's stages on it.
    func processInPlace(_ event: inout TrackedEvent) -> Bool {
        let stages: [any EventProcessor]? = lock.withLock {
            if phase == .open { return current.processors }
            if held.count < capacity { held.append(event) } else { refused += 1 }
            return nil
        }
        guard let stages else { return false }
        for stage in stages where !stage.processInPlace(&event) { return false }
        return true
    }

    /// Runs ``processInPlace(_:)`` on a copy.
    func process(_ event: TrackedEvent) -> TrackedEvent? {
        var event = event
        return processInPlace(&event) ? event : nil
    }

    /// Installs `stack` and hands the held events, through its stages, to `deliver`, oldest
    /// first, until none is left; then opens. Call once.
    /// - Returns: how many held events were handed over.
    @discardableResult
    func open(with stack: DataQualityStack, deliver: (TrackedEvent) -> Void) -> Int {
        lock.withLock {
            current = stack
            phase = .replaying
        }
        var handed = 0
        while let batch = nextHeld() {
            for var event in batch {
                guard stack.processors.allSatisfy({ $0.processInPlace(&event) }) else { continue }
                deliver(event)
                handed += 1
            }
        }
        return handed
    }

    /// The events held so far, taken out; `nil` (and open) when there are none.
    private func nextHeld() -> [TrackedEvent]? {
        lock.withLock {
            guard !held.isEmpty else {
                phase = .open
                return nil
            }
            defer { held.removeAll() }
            return held
        }
    }
}
