import Foundation
import Tracking

/// The open event streams (`/api/stream`) and the poller that feeds them.
///
/// The poller runs only while at least one stream is open: every 250 ms it reads the source's
/// ``InspectorSource/fingerprint()`` and, when that changed, the newest events, and sends each
/// stream the Summaries that are new or changed since the last message (an event that left the
/// store delivered or evicted is sent once more with that status); once a second it sends
/// Health (and samples the rates); every 15 s a `: keep-alive` comment. With no stream open,
/// nothing is scheduled. A new stream first gets every newest event (`"reset": true`) and Health.
///
/// Writes go out on each stream's own serial queue, so a slow client never holds the poller
/// up; one that falls 16 messages behind, whose connection fails, or whose client closed it
/// (checked at every beat) is dropped (a page reconnects and starts again from a reset).
final class InspectorStreams: Sendable {
    /// How many events a stream follows.
    static let limit = 1_000
    private static let interval = 0.25
    private static let maxBacklog = 16

    private let source: any InspectorSource
    private let listener: InspectorListener
    private let health: @Sendable () -> [UInt8]
    private let history: InspectorHistory
    /// Touched at every beat: an open stream is someone watching.
    private let watch: InspectorWatch
    private let pollQueue = DispatchQueue(label: "InspectorServer.poll", qos: .utility)
    private let state = LockedValue(State())

    /// One open stream. Its ``id`` tells it from a later stream on the same descriptor number.
    private struct Stream: Sendable {
        let id: UInt64
        let connection: Int32
        let queue: DispatchQueue
        var backlog = 0
    }

    /// What an event looked like in the last message.
    private struct Shown: Equatable {
        var status: String
        var attempts: Int
        var lastError: String?
        var flags: [String]
        var inJournal: Bool?
        /// Timeline steps: the store settles an event just before its step is recorded, so a
        /// poll between the two sends the new status, and the next one the step.
        var steps: Int

        init(_ record: MonitorRecord, status: String? = nil) {
            self.status = status ?? record.status.rawValue
            attempts = record.attempts
            lastError = record.lastError
            flags = record.flags
            inJournal = record.inJournal
            steps = record.timeline?.count ?? 0
        }
    }

    /// The streams, the poller's schedule, and what the last message showed.
    private struct State: Sendable {
        var streams: [Int32: Stream] = [:]
        var newcomers: [Int32] = []
        var opened: UInt64 = 0
        var polling = false
        var stopped = false
        var tick = 0
        // Only the poll queue reads and writes these.
        var fingerprint: [Int]?
        var latest: [MonitorRecord] = []
        var shown: [UUID: (record: MonitorRecord, shown: Shown)] = [:]
    }

    /// Creates the hub; nothing runs until a stream opens.
    /// - Parameter health: the Health body (already recording diagnostics in `history`).
    init(source: any InspectorSource, listener: InspectorListener, history: InspectorHistory, watch: InspectorWatch,
         health: @escaping @Sendable () -> [UInt8]) {
        self.source = source
        self.watch = watch
        self.listener = listener
        self.history = history
        self.health = health
    }

    /// Whether the poller is scheduled (only while a stream is open).
    var isPolling: Bool { state.withLock { $0.polling } }

    /// Takes over `connection`, whose stream head was written: it gets the reset message and
    /// Health at once (on the poll queue), then the updates. The poller starts if it was idle.
    func open(_ connection: Int32) {
        let start: Bool? = state.withLock { state in
            if state.stopped { return nil }
            state.opened += 1
            state.streams[connection] = Stream(id: state.opened, connection: connection,
                                               queue: DispatchQueue(label: "InspectorServer.stream", qos: .utility))
            state.newcomers.append(connection)
            defer { state.polling = true }
            return !state.polling
        }
        guard let start else { return listener.finish(connection) }
        pollQueue.async { [self] in
            poll(force: true)
            if start { pollQueue.asyncAfter(deadline: .now() + Self.interval) { [self] in tick() } }
        }
    }

    /// Drops every stream (their connections close once their queued writes are done).
    func stop() {
        let dropped = state.withLock { state in
            state.stopped = true
            defer { state.streams = [:]; state.newcomers = [] }
            return Array(state.streams.values)
        }
        for stream in dropped { close(stream) }
    }

    /// One beat of the poller: poll, Health each second, keep-alive each 15 s, and the next beat
    /// only while a stream is open.
    private func tick() {
        let beat: Int? = state.withLock { state in
            guard !state.stopped, !state.streams.isEmpty else {
                state.polling = false
                state.fingerprint = nil
                state.shown = [:]
                state.latest = []
                return nil
            }
            state.tick += 1
            return state.tick
        }
        guard let beat else { return history.restartRates() }
        watch.touch()
        dropClosed()
        poll(force: false)
        if beat % 4 == 0 {
            if let totals = source.rateTotals() { history.recordRates(sent: totals.sent, delivered: totals.delivered) }
            broadcast(Self.message("health", health()), to: nil)
        }
        if beat % 60 == 0 { broadcast(Array(": keep-alive\n\n".utf8), to: nil) }
        pollQueue.asyncAfter(deadline: .now() + Self.interval) { [self] in tick() }
    }

    /// Sends the changes since the last poll to the streams that had the last message, and the
    /// reset and Health to the newcomers. Runs on the poll queue only.
    private func poll(force: Bool) {
        let (previous, newcomers) = state.withLock { state in
            defer { state.newcomers = [] }
            return (state.fingerprint, state.newcomers)
        }
        let fingerprint = source.fingerprint()
        if force || fingerprint != previous, let records = try? source.recent(limit: Self.limit) {
            let (changes, vanished) = changed(records)
            state.withLock { $0.fingerprint = fingerprint }
            if vanished {
                // Deleted (a purge, an opt-out, a consent denial, rejected events deleted): the
                // pages start again from the listing, so what was deleted leaves them too.
                let reset = InspectorEncoding.streamEvents(records.map { ($0, nil) }, reset: true)
                broadcast(Self.message("events", reset), to: nil, except: Set(newcomers))
            } else if !changes.isEmpty {
                broadcast(Self.message("events", InspectorEncoding.streamEvents(changes, reset: false)), to: nil, except: Set(newcomers))
            }
        }
        guard !newcomers.isEmpty else { return }
        let latest = state.withLock { $0.latest }
        let reset = Self.message("events", InspectorEncoding.streamEvents(latest.map { ($0, nil) }, reset: true))
        let health = Self.message("health", health())
        for connection in newcomers { broadcast(reset + health, to: connection) }
    }

    /// The Summaries of `records` that are new or changed, then those of the events that left
    /// delivered or evicted; remembers `records` as shown. `vanished`: events left a listing that
    /// is not full with neither step (they were deleted).
    private func changed(_ records: [MonitorRecord]) -> (changes: [(record: MonitorRecord, status: String?)], vanished: Bool) {
        let before = state.withLock { $0.shown }
        var shown: [UUID: (record: MonitorRecord, shown: Shown)] = [:]
        var changes: [(record: MonitorRecord, status: String?)] = []
        for record in records {
            let now = Shown(record)
            shown[record.id] = (record, now)
            if before[record.id]?.shown != now { changes.append((record, nil)) }
        }
        // Events that left the listing because they were delivered or evicted (one pushed out of
        // a full listing by newer ones has no such step and is left out); each is sent once,
        // as `shown` remembers only the listing.
        let gone = before.filter { shown[$0.key] == nil }
        let departures = gone.isEmpty ? [:] : source.departures(of: Set(gone.keys))
        var vanished = false
        for (id, entry) in gone {
            guard let status = departures[id] else {
                vanished = vanished || records.count < Self.limit
                continue
            }
            if entry.shown.status != status { changes.append((entry.record, status)) }
        }
        state.withLock { state in
            state.shown = shown
            state.latest = records
        }
        return (changes, vanished)
    }

    /// `event: name`, `data: json` (made safe), and the blank line that ends a message.
    static func message(_ name: String, _ json: [UInt8]) -> [UInt8] {
        Array("event: \(name)\ndata: ".utf8) + InspectorJSON.safe(json) + Array("\n\n".utf8)
    }

    /// Queues `bytes` to one stream, or to all (but `except`); drops a stream that is too far behind.
    private func broadcast(_ bytes: [UInt8], to connection: Int32?, except: Set<Int32> = []) {
        let targets: [Stream] = state.withLock { state in
            let chosen = connection.map { [$0] } ?? Array(state.streams.keys)
            return chosen.compactMap { key in
                guard !except.contains(key), var stream = state.streams[key] else { return nil }
                stream.backlog += 1
                state.streams[key] = stream
                return stream
            }
        }
        for stream in targets {
            guard stream.backlog <= Self.maxBacklog else {
                drop(stream)
                continue
            }
            // A stream's connection is closed on its own queue, after it left `streams`: while it
            // is still there (the same stream, not a later one on a reused number), it is open.
            stream.queue.async { [self] in
                guard state.withLock({ $0.streams[stream.connection]?.id == stream.id }) else { return }
                let sent = InspectorSocket.sendAll(stream.connection, bytes)
                state.withLock { state in
                    if state.streams[stream.connection]?.id == stream.id { state.streams[stream.connection]?.backlog -= 1 }
                }
                if !sent { drop(stream) }
            }
        }
    }

    /// Drops the streams whose client left. Checked under the lock: a stream's connection is
    /// closed only after it left `streams`, so every descriptor looked at is still its own.
    private func dropClosed() {
        let closed: [Stream] = state.withLock { state in
            InspectorSocket.closedByPeer(Array(state.streams.keys)).compactMap { state.streams.removeValue(forKey: $0) }
        }
        for stream in closed { close(stream) }
    }

    /// Forgets `stream` and closes its connection, unless it is gone already (a later stream on
    /// the same descriptor number is left alone).
    private func drop(_ stream: Stream) {
        let removed = state.withLock { state in
            guard state.streams[stream.connection]?.id == stream.id else { return false }
            state.streams[stream.connection] = nil
            return true
        }
        if removed { close(stream) }
    }

    /// Shuts the connection down now (its pending writes fail fast) and closes it after them.
    private func close(_ stream: Stream) {
        InspectorSocket.shutDown(stream.connection)
        stream.queue.async { [listener] in listener.finish(stream.connection) }
    }
}
