import Foundation

/// Work that must not race a delivery: deleting events that a round may have claimed.
extension DeliveryWorker {
    /// Runs `body` while no round runs, and returns its value.
    ///
    /// The round in progress is cancelled and awaited first: its request in flight is cancelled
    /// (when the transport honours cancellation; otherwise it ends by its answer or its
    /// timeout), the batch claimed ahead of it is released unsent, and no further batch starts.
    /// Rounds asked for meanwhile wait until `body` has returned. A request already on the wire
    /// when this is called may still reach the collector; nothing claimed by the store before
    /// `body` runs is sent after it.
    func excludingRounds<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        await waitForExclusions()
        let running = currentRound
        running?.cancel()
        deferralWait?.interrupt()
        let work = Task<T, Never> {
            if let running { _ = await running.value }
            return await body()
        }
        let gate = Task<Void, Never> { _ = await work.value }
        barrier = gate
        let result = await work.value
        if barrier == gate { barrier = nil }
        return result
    }

    /// Waits until no work excluding rounds runs. A waiter clears a barrier it saw finish (its
    /// owner may not have run again yet), so that nobody spins on a finished one.
    func waitForExclusions() async {
        while let other = barrier {
            await other.value
            if barrier == other { barrier = nil }
        }
    }
}
