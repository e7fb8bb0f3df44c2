import Foundation
import Tracking

extension Dispatcher {
    /// Makes the event durable and returns at once; delivery happens later.
    /// - Returns: a receipt whose form is `journal`, or `memory` while the journal cannot take
    ///   events (the store is not open, the journal's byte budget or the disk is full: they move
    ///   to the journal, in order, once it can); `nil` when the event was refused, which is
    ///   counted by ``RefusalReason`` in ``counters`` and reported.
    public func send(_ event: TrackedEvent) -> Receipt? {
        if journalDirectly(event) { return Placement.journal.receipt(for: event) }
        return accept(EncodedEvent(journaling: event)).receipt(for: event)
    }

    /// Writes `event` straight into the journal, its parts encoded in place (the common case:
    /// the store is open, nothing waits in memory, nothing must be cut).
    /// - Returns: whether it was journalled; when not, nothing was counted, and ``accept(_:)``
    ///   decides what happens to it (the journal may refuse it again, then memory takes it or
    ///   it is refused and counted).
    private func journalDirectly(_ event: TrackedEvent) -> Bool {
        // Only the writer is taken out of the state (copying the whole backend retains each of
        // its parts), and the encoded shared context when the last event's was this one.
        let shared = event.sharedContext
        // No writer once closed.
        let (writer, known, memoryMayHoldEvents) = state.withLock { state in
            (state.closed ? nil : state.backend?.ingest, state.lastShared.flatMap { $0.shared === shared ? $0.encoded : nil },
             state.memoryMayHoldEvents)
        }
        // Memory is asked (under a lock of its own) only when it may hold events. The writer is
        // moved out of its optional, not copied (which would retain it once more).
        guard !(memoryMayHoldEvents && overflow.isBuffering), let ingest = consume writer else { return false }
        if let shared, known == nil {
            let made = EncodedSharedContext.cached(shared)
            state.withLock { $0.lastShared = (shared, made) }
            return Self.journal(event, sharedContext: made, into: ingest)
        }
        return Self.journal(event, sharedContext: known, into: ingest)
    }

    /// Writes `event`, whose shared context's encoded form is `encoded`, into `ingest`'s journal
    /// through a scratch buffer on the stack; whether it was written.
    ///
    /// Kept out of line, its arguments borrowed: the buffer's closure then uses them as they
    /// are, not copies retained for it (and the sender hands over the encoded form it found,
    /// not a copy of it).
    @inline(never)
    private static func journal(_ event: borrowing TrackedEvent, sharedContext encoded: borrowing EncodedSharedContext?,
                                into ingest: borrowing IngestWriter) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: DirectJournalEvent.scratchSize, alignment: 8) { scratch in
            guard let direct = DirectJournalEvent(event, sharedContext: copy encoded, scratch: scratch) else { return false }
            do {
                try ingest.write(direct)
                return true
            } catch {
                return false
            }
        }
    }

    /// Makes several events durable under one journal lock.
    /// - Returns: a receipt for each event accepted (see ``send(_:)``).
    public func send(contentsOf events: [TrackedEvent]) -> [Receipt] {
        let encoded = events.map(EncodedEvent.init(journaling:))
        var written = 0
        if let backend, !overflow.isBuffering {
            let result = backend.ingest.write(contentsOf: encoded)
            written = result.written
            if let error = result.error { journalRefused(error) }
        }
        let placements = Array(repeating: Placement.journal, count: written) + encoded[written...].map(accept)
        return zip(placements, events).compactMap { $0.receipt(for: $1) }
    }

    /// Where an event went.
    enum Placement {
        case journal, memory, refused

        /// The receipt for `event` placed here; `nil` when it was refused.
        func receipt(for event: TrackedEvent) -> Receipt? {
            let form: String
            switch self {
            case .journal: form = "journal"
            case .memory: form = "memory"
            case .refused: return nil
            }
            return Receipt(plugin: "dispatcher", eventID: event.id, handledAt: event.timestamp, form: form)
        }
    }

    /// Puts `event` in the journal, or in memory behind what already waits there, or refuses it.
    func accept(_ event: EncodedEvent) -> Placement {
        let (backend, closed) = state.withLock { state in (state.backend, state.closed) }
        if closed {
            refuse(.closed, detail: "send after close()")
            return .refused
        }
        if let backend, !overflow.isBuffering {
            do {
                try backend.ingest.write(event)
                return .journal
            } catch {
                switch error {
                case .closed where !isClosed:
                    // The storage was released for suspension meanwhile: memory buffers it.
                    break
                case .recordTooLarge, .closed:
                    refuse(error == .closed ? .closed : .tooLarge, detail: error.description)
                    return .refused
                case .full, .io:
                    journalRefused(error)
                }
            }
        }
        // Noted before buffering: a sender that finds it unset knows memory holds nothing.
        state.withLock { state in
            state.memoryMayHoldEvents = true
            state.buffersUnderway += 1
        }
        let buffered = overflow.buffer(event)
        state.withLock { $0.buffersUnderway -= 1 }
        guard buffered else {
            refuse(.noRoom, detail: state.withLock { state in state.journalProblem ?? "storage \(state.storage)" })
            return .refused
        }
        // The store may have opened meanwhile: make sure someone moves this event on.
        if let backend = self.backend { startMover(backend) }
        return .memory
    }

    /// Notes that the journal refused an event that memory is about to buffer, and reports it once.
    func journalRefused(_ error: JournalError) {
        let text = error.description
        let first = state.withLock { state in
            defer { state.journalProblem = text }
            return state.journalProblem == nil
        }
        if first {
            diagnose(.storage, "the journal cannot take events (\(text)); they wait in memory (up to \(overflow.capacity)) and move to the journal once it can")
        }
    }

    /// Counts one refused event and reports refusals, at most once a second.
    func refuse(_ reason: RefusalReason, detail: String) {
        let now = Date()
        let refusedSoFar: Int? = state.withLock { state in
            state.counters.refused += 1
            state.counters.refusals[reason, default: 0] += 1
            state.counters.lastRefusal = "\(reason): \(detail)"
            guard (state.lastRefusalReport.map { now.timeIntervalSince($0) >= 1 } ?? true) else { return nil }
            state.lastRefusalReport = now
            return state.counters.refused
        }
        if let refusedSoFar { diagnose(.storage, "refused events (\(reason): \(detail)); \(refusedSoFar) refused so far") }
    }

    /// Starts, unless running, a mover on a ``BlockingQueue`` of its own that moves what waits
    /// in memory into the journal, then again every 20 ms until memory is empty or the
    /// Dispatcher closes. A paused or full journal refuses such a move at once, without a
    /// system call, and the wait between moves holds no thread, so this never spins.
    func startMover(_ backend: DispatcherBackend) {
        let start = state.withLock { state in
            guard !state.moverRunning, !state.closed else { return false }
            state.moverRunning = true
            return true
        }
        guard start else { return }
        scheduleMove(on: BlockingQueue(label: "Dispatcher.overflow"), after: 0)
    }

    /// One move of the mover, and the next one queued unless it is done.
    private func scheduleMove(on queue: BlockingQueue, after delay: Double) {
        queue.start(after: delay) { [weak self] in
            guard let self else { return }
            // The storage may have been released for suspension (and reopened) meanwhile:
            // move into the backend open now, or stop until one opens (it starts a mover).
            let current = self.state.withLock { state -> DispatcherBackend? in
                if state.backend == nil { state.moverRunning = false }
                return state.backend
            }
            guard let current else { return }
            let buffered = self.moveFromMemory(to: current)
            // Decided under the lock a sender takes to start a mover, after its event is buffered:
            // either this sees the event, or the sender sees this mover gone and starts one.
            let done = self.state.withLock { state in
                guard state.closed || (buffered == 0 && self.overflow.count == 0) else { return false }
                state.moverRunning = false
                return true
            }
            if !done { self.scheduleMove(on: queue, after: 0.02) }
        }
    }

    /// Hands what waits in memory to the store's journal, in order.
    /// - Returns: how many still wait in memory.
    @discardableResult
    func moveFromMemory(to backend: DispatcherBackend) -> Int {
        let (buffered, recovered) = moveLock.withLock { _ in
            var waiting = overflow.beginMove()[...]
            var moved = 0
            while !waiting.isEmpty {
                let (written, error) = backend.ingest.write(contentsOf: Array(waiting))
                moved += written
                waiting = waiting.dropFirst(written)
                guard let error else { break }
                if case .recordTooLarge = error {
                    refuse(.tooLarge, detail: error.description)
                    waiting = waiting.dropFirst()
                    continue
                }
                break
            }
            let buffered = overflow.finishMove(returning: Array(waiting))
            let recovered = state.withLock { state in
                state.counters.movedFromMemory += moved
                // Memory is empty, not moving, and nobody is about to buffer: senders need not ask it.
                if buffered == 0, state.buffersUnderway == 0, !overflow.isBuffering { state.memoryMayHoldEvents = false }
                guard buffered == 0, waiting.isEmpty, state.journalProblem != nil else { return false }
                state.journalProblem = nil
                return true
            }
            return (buffered, recovered)
        }
        if recovered { diagnose(.storage, "the journal takes events again; what waited in memory moved to it") }
        return buffered
    }

    /// Moves what waits in memory to the journal, retrying every 20 ms until nothing is left or
    /// `deadline` passes. Blocking: call it off Swift's cooperative pool.
    /// - Returns: whether memory is empty.
    func moveAllFromMemory(to backend: DispatcherBackend, deadline: Date) -> Bool {
        while moveFromMemory(to: backend) > 0 {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }
}
