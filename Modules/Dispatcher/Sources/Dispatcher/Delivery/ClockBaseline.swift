import Foundation
import Tracking

/// A reading of the wall clock beside ``SteadyClock``, kept in the store's `meta` table, so that a
/// process started after the date was set still sees the step: ``WallClockWitness`` watches from
/// the first reading taken on the current boot, not from its own start.
///
/// A reading from an earlier boot is replaced (the steady clock starts again at boot): on Linux
/// the kernel's boot id tells, elsewhere a steady clock behind the reading's. Where a reboot goes
/// unnoticed (an Apple device restarted and running longer than before), the witness may take
/// real elapsed time for a step: that only leaves more of an event's age out of `maxAge`, never
/// condemns an event sooner; `maxAttempts` still bounds its retries.
struct ClockBaseline: Equatable, Sendable {
    /// The wall clock at the reading.
    var wall: Date
    /// ``SteadyClock/secondsSinceBoot()`` at the reading.
    var steady: TimeInterval
    /// The boot the reading was taken in ("" where the system does not say).
    var boot: String

    /// The `meta` key (kept by `purge()`, like every key starting with `_`).
    static let metadataKey = "_clock_baseline"

    /// The reading as stored: wall seconds, steady seconds and the boot, separated by spaces.
    var metadata: String { "\(wall.timeIntervalSince1970) \(steady) \(boot)" }

    /// Creates a reading.
    init(wall: Date, steady: TimeInterval, boot: String) {
        self.wall = wall
        self.steady = steady
        self.boot = boot
    }

    /// Reads a stored reading; `nil` when the text is not one.
    init?(metadata: String) {
        let parts = metadata.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, let wall = Double(parts[0]), let steady = Double(parts[1]), wall.isFinite, steady.isFinite else { return nil }
        self.init(wall: Date(timeIntervalSince1970: wall), steady: steady, boot: String(parts[2]))
    }

    /// The reading to watch from: `saved` when it was taken on the boot of `current`, else `current`.
    static func resolve(saved: ClockBaseline?, current: ClockBaseline) -> ClockBaseline {
        guard let saved, saved.boot == current.boot, saved.steady <= current.steady else { return current }
        return saved
    }

    /// The reading to watch from for a store: the one it keeps when taken on this boot, otherwise
    /// a reading taken now, which it keeps from then on. A read-only or failing store gives the
    /// reading taken now.
    static func adopt(in store: EventStore, wall: Date = Date(), steady: TimeInterval = SteadyClock.secondsSinceBoot(),
                      boot: String = currentBoot) -> ClockBaseline {
        let current = ClockBaseline(wall: wall, steady: steady, boot: boot)
        let saved = (try? store.metadata(metadataKey))?.flatMap(ClockBaseline.init(metadata:))
        let chosen = resolve(saved: saved, current: current)
        if chosen != saved, !store.isReadOnly { try? store.setMetadata(metadataKey, chosen.metadata) }
        return chosen
    }

    /// This boot's identity: the kernel's boot id on Linux, "" elsewhere.
    static let currentBoot: String = {
        #if os(Linux)
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? ""
        return text.filter { $0.isHexDigit || $0 == "-" }
        #else
        return ""
        #endif
    }()
}
