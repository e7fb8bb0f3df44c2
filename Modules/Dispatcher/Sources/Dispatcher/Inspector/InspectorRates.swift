import Foundation

/// Events sent and delivered per second over the last five minutes, taken from the source's
/// running totals once a second while a stream is open (nothing samples otherwise: the seconds
/// nobody watched are simply missing).
struct InspectorRates: Sendable {
    /// One second's counts.
    struct Sample: Sendable, Equatable {
        /// The second, in seconds since 1970.
        var second: Int
        /// Events sent during it.
        var sent: Int
        /// Events delivered during it.
        var delivered: Int
    }

    /// How many seconds are kept.
    static let window = 300

    /// The samples, oldest first.
    private(set) var samples: [Sample] = []
    /// The totals at the last sample, and its second.
    private var last: (second: Int, sent: Int, delivered: Int)?

    /// Records the totals seen at `date`: the difference from the previous totals becomes the
    /// sample of `date`'s second (samples come once a second while polling). The first call
    /// after ``restart()`` only sets the baseline.
    mutating func record(sent: Int, delivered: Int, at date: Date = Date()) {
        let second = Int(date.timeIntervalSince1970)
        defer { last = (second, sent, delivered) }
        guard let last, second > last.second else { return }
        samples.append(Sample(second: second, sent: max(0, sent - last.sent), delivered: max(0, delivered - last.delivered)))
        let oldest = second - Self.window
        if let first = samples.firstIndex(where: { $0.second > oldest }), first > 0 { samples.removeFirst(first) }
    }

    /// Forgets the baseline (the next ``record(sent:delivered:at:)`` sets a new one), so that the
    /// events of a time nobody watched are not counted as one second's.
    mutating func restart() { last = nil }

    /// The samples of the last five minutes before `date`.
    func recent(at date: Date = Date()) -> [Sample] {
        let oldest = Int(date.timeIntervalSince1970) - Self.window
        return samples.filter { $0.second > oldest }
    }
}
