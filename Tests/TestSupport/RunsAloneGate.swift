/// The process-wide gate behind ``RunsAlone``: one holder at a time, the others wait in order,
/// without blocking a thread.
actor RunsAloneGate {
    /// The one gate of the test process.
    static let shared = RunsAloneGate()

    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits until the gate is free, then holds it.
    func enter() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the gate to the next waiter, or frees it.
    func leave() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
