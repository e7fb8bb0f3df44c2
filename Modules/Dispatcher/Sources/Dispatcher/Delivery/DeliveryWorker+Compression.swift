import Foundation

/// Sending a batch with the compression the destination's endpoint accepts.
extension DeliveryWorker {
    /// Delivers `batch`, its body compressed as a ``CompressingDestination`` says, or plain once
    /// its endpoint refused compressed bodies: remembered here and in the queue (read once, at
    /// the first batch), so a restart sends plain bodies too. A refusal recorded for another
    /// endpoint does not apply.
    func send(_ batch: [StoredEvent]) async -> DeliveryResult {
        let start = configuration.clock()
        var result = await send(batch, sentAt: start)
        result.requestStartedAt = start
        return result
    }

    private func send(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult {
        guard let compressing = destination as? any CompressingDestination, compressing.compression != .plain else {
            return await destination.deliver(batch, sentAt: sentAt)
        }
        let endpoint = compressing.endpointIdentity
        let queue = queue
        if sendsPlainBodies == nil {
            sendsPlainBodies = (try? await storeQueue.run { try queue.sendsPlainBodies(to: endpoint) }) ?? false
        }
        let compression: RequestCompression = sendsPlainBodies == true ? .plain : compressing.compression
        let result = await compressing.deliver(batch, sentAt: sentAt, compression: compression)
        if result.compressionRefused, sendsPlainBodies != true {
            sendsPlainBodies = true
            _ = try? await storeQueue.run { try queue.rememberPlainBodies(for: endpoint) }
        }
        return result
    }
}
