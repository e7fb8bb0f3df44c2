import Foundation

/// The state behind ``EventID``: reads a clock, keeps the last timestamp, the counter within it
/// and a xoshiro256** generator. The clock is injectable so that tests can step it.
///
/// Ids from ``make()`` are strictly increasing whatever the clock does. When it reads earlier
/// than the last id's millisecond (an NTP correction, a user changing the time), the generator
/// keeps that millisecond and counts on, borrowing the next one after 4,096 ids, until the
/// clock catches up; ids made meanwhile carry the last time, not the clock's.
final class EventIDGenerator: Sendable {
    private let clock: @Sendable () -> Date
    private let state: LockedValue<State>

    /// Creates a generator reading `clock` (the system's wall clock by default).
    init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
        var seed = SystemRandomNumberGenerator()
        state = LockedValue(State(random: (seed.next(), seed.next(), seed.next(), seed.next() | 1)))
    }

    /// A new id for the clock's time, greater than every id this generator made before.
    func make() -> UUID { make(now: clock()) }

    /// A new id for `now`, a reading of this generator's clock the caller has just taken (so
    /// that an event's id and timestamp come from one reading), ordered like ``make()``.
    func make(now: Date) -> UUID { uuid(next(milliseconds: Self.milliseconds(now), ordered: true)) }

    /// A new id for `date`. A date within a second of the clock is ordered like ``make()``; any
    /// other (back- or forward-dated) keeps its own time, unordered, and leaves the order alone,
    /// so that it cannot drag later ids to its time.
    func make(at date: Date) -> UUID {
        let milliseconds = Self.milliseconds(date)
        let now = Self.milliseconds(clock())
        return uuid(next(milliseconds: milliseconds, ordered: milliseconds + 1_000 >= now && milliseconds <= now + 1_000))
    }

    private static func milliseconds(_ date: Date) -> UInt64 {
        UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    private func uuid(_ parts: (timestamp: UInt64, counter: UInt16, random: UInt64)) -> UUID {
        let high = parts.timestamp << 16 | 0x7000 | UInt64(parts.counter & 0x0FFF)
        let low = 0x8000_0000_0000_0000 | (parts.random & 0x3FFF_FFFF_FFFF_FFFF)
        return UUID(uuid: (
            UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
            UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
            UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
            UInt8(truncatingIfNeeded: high >> 8), UInt8(truncatingIfNeeded: high),
            UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
            UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
            UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
            UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)))
    }

    private func next(milliseconds: UInt64, ordered: Bool) -> (timestamp: UInt64, counter: UInt16, random: UInt64) {
        state.withLock { $0.next(milliseconds: milliseconds, ordered: ordered) }
    }
}

/// The generator's mutable state: the last id's millisecond, the counter within it and the
/// xoshiro256** state.
private struct State {
    var lastMilliseconds: UInt64 = 0
    var counter: UInt16 = 0
    var random: (UInt64, UInt64, UInt64, UInt64)

    mutating func next(milliseconds: UInt64, ordered: Bool) -> (timestamp: UInt64, counter: UInt16, random: UInt64) {
        if !ordered {
            return (milliseconds & 0xFFFF_FFFF_FFFF, UInt16(truncatingIfNeeded: nextRandom() & 0x0FFF), nextRandom())
        }
        if milliseconds > lastMilliseconds {
            lastMilliseconds = milliseconds
            // Start each millisecond at a random point in the lower half, leaving room to count.
            counter = UInt16(truncatingIfNeeded: nextRandom() & 0x07FF)
        } else if counter < 0x0FFF {
            // The same millisecond, or the clock behind the last id (stepped back, or borrowed
            // from below): count on from the last id.
            counter += 1
        } else {
            // 4,096 ids in one millisecond: borrow the next millisecond to stay ordered.
            lastMilliseconds += 1
            counter = 0
        }
        return (lastMilliseconds & 0xFFFF_FFFF_FFFF, counter, nextRandom())
    }

    private mutating func nextRandom() -> UInt64 {
        let result = rotate(random.1 &* 5, 7) &* 9
        let shifted = random.1 << 17
        random.2 ^= random.0
        random.3 ^= random.1
        random.1 ^= random.2
        random.0 ^= random.3
        random.2 ^= shifted
        random.3 = rotate(random.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 { value << count | value >> (64 - count) }
}
