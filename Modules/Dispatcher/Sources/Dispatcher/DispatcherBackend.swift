import Foundation

/// The parts of a Dispatcher that exist once its storage opened: the store, the writer that
/// fills it and, with a destination, the delivery scheduler.
struct DispatcherBackend: Sendable {
    let store: EventStore
    let ingest: IngestWriter
    let scheduler: DeliveryScheduler?

    /// Opens the store (a corrupt file is set aside by the store itself), returns in-flight rows
    /// to pending, starts delivery, then replays the journal and starts the writer, which
    /// records in `timeline`, tells `sink` and asks the scheduler after each commit.
    /// - Parameters:
    ///   - demand: what calls for a delivery round, with what earlier openings counted.
    ///   - hold: the pause and reachability the host asked for, seeded into the scheduler.
    ///   - claim: the claim on the store taken beforehand, if any.
    ///   - erasing: deletions for privacy asked for before the store opened: every event is
    ///     deleted before the journal is replayed or delivery starts, held ones after the replay.
    static func open(
        configuration: DispatcherConfiguration,
        claim: StoreClaim? = nil,
        erasing: PendingErasure = PendingErasure(),
        timeline: EventTimeline,
        sink: any IngestSink,
        demand: DeliveryDemand,
        hold: DeliveryHold = DeliveryHold(),
        onAttempt: @escaping @Sendable (DeliveryAttempt) -> Void,
        onReport: @escaping @Sendable (DeliveryReport) -> Void
    ) throws -> DispatcherBackend {
        // The store makes its folder (0700, protected: see `FileProtection.createDirectory`).
        let batch = configuration.batch
        let store = try EventStore(
            path: configuration.storePath,
            limits: StoreLimits(
                maxEvents: batch.maxQueueSize, maxBytes: batch.maxQueueBytes, deliveredHistory: configuration.deliveredHistory),
            claim: claim)
        var scheduler: DeliveryScheduler?
        do {
            try erasing.eraseEvents(in: store, journalDirectory: configuration.storePath + ".journal")
            _ = try store.releaseAllInFlight()
            if let destination = configuration.destination {
                let worker = DeliveryWorker(
                    queue: store, destination: destination,
                    configuration: DeliveryWorkerConfiguration(
                        deliverySize: batch.deliverySize, retryPolicy: configuration.retryPolicy,
                        clockBaseline: ClockBaseline.adopt(in: store)),
                    observer: onAttempt
                )
                scheduler = DeliveryScheduler(worker: worker, demand: demand, flushInterval: batch.flushInterval, hold: hold, onReport: onReport)
            }
            let diagnose = configuration.onDiagnostic
            let ingest = try IngestWriter(
                store: store,
                configuration: IngestConfiguration(journal: journalShape(for: batch)),
                timeline: timeline,
                scheduler: scheduler,
                sink: sink,
                onError: { error in diagnose?(DispatcherDiagnostic(area: .storage, message: "\(error)")) }
            )
            do { try erasing.deleteHeld(in: ingest) } catch {
                _ = ingest.close(timeout: 1)
                throw error
            }
            return DispatcherBackend(store: store, ingest: ingest, scheduler: scheduler)
        } catch {
            scheduler?.cancelTimers()
            store.close()
            throw error
        }
    }

    /// The journal holds what waits for the store, bounded by the byte budget
    /// (``BatchConfiguration/maxQueueBytes``): segments of an eighth of it, between 64 KiB and 4 MiB.
    static func journalShape(for batch: BatchConfiguration) -> JournalConfiguration {
        let segmentBytes = min(4 << 20, max(JournalConfiguration.smallestSegmentBytes, batch.maxQueueBytes / 8))
        return JournalConfiguration(segmentBytes: segmentBytes, maxBytes: batch.maxQueueBytes)
    }
}
