import Foundation

/// Makes event ids: UUID version 7 (RFC 9562), time-ordered so that store indexes stay local.
///
/// Within one process ids are strictly increasing: the 12 bits after the millisecond timestamp
/// count events within the same millisecond (RFC 9562, method 1), and the remaining 62 bits are
/// random, from a generator seeded once from the system's secure source. No system call is
/// made per id.
public enum EventID {
    private static let generator = MonotonicGenerator()

    /// A new UUIDv7 for `date` (now by default). Ids made for the current time are greater than
    /// every id made before them in this process.
    public static func make(at date: Date = Date()) -> UUID {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        let (timestamp, counter, random) = generator.next(milliseconds: milliseconds)
        let high = timestamp << 16 | 0x7000 | UInt64(counter & 0x0FFF)
        let low = 0x8000_0000_0000_0000 | (random & 0x3FFF_FFFF_FFFF_FFFF)
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

    /// The millisecond timestamp encoded in a version 7 id.
    public static func milliseconds(of id: UUID) -> UInt64 {
        let bytes = id.uuid
        return [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// The shared state behind ``EventID``: the last timestamp, the counter within it and a
/// xoshiro256** generator.
private final class MonotonicGenerator: @unchecked Sendable {
    // Safe: every `var` is only touched while holding `lock`.
    private let lock = NSLock()
    private var lastMilliseconds: UInt64 = 0
    private var counter: UInt16 = 0
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var seed = SystemRandomNumberGenerator()
        state = (seed.next(), seed.next(), seed.next(), seed.next() | 1)
    }

    func next(milliseconds: UInt64) -> (timestamp: UInt64, counter: UInt16, random: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        if milliseconds > lastMilliseconds {
            lastMilliseconds = milliseconds
            // Start each millisecond at a random point in the lower half, leaving room to count.
            counter = UInt16(truncatingIfNeeded: nextRandom() & 0x07FF)
        } else if milliseconds + 1_000 < lastMilliseconds {
            // Well before the last id (a date given explicitly): keep that time, unordered.
            return (milliseconds & 0xFFFF_FFFF_FFFF, UInt16(truncatingIfNeeded: nextRandom() & 0x0FFF), nextRandom())
        } else if counter < 0x0FFF {
            counter += 1
        } else {
            // 4,096 ids in one millisecond: borrow the next millisecond to stay ordered. (A time
            // up to a second behind the last id, borrowed or a clock step back, counts as it.)
            lastMilliseconds += 1
            counter = 0
        }
        return (lastMilliseconds & 0xFFFF_FFFF_FFFF, counter, nextRandom())
    }

    private func nextRandom() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 { value << count | value >> (64 - count) }
}
