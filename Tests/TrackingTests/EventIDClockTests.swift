import Foundation
import Testing
@testable import Tracking
import TrackingTestKit

/// A wall clock that advances `tick` seconds per reading and, for the readings in `steppedBack`,
/// reads one hour earlier: an NTP correction or a user changing the time, then changing it back.
final class SteppingClock: Sendable {
    private let readings = LockedValue(0)
    let start: Date
    let tick: TimeInterval
    let steppedBack: Range<Int>

    init(start: Date = Date(timeIntervalSince1970: 1_763_719_200), tick: TimeInterval, steppedBack: Range<Int>) {
        self.start = start
        self.tick = tick
        self.steppedBack = steppedBack
    }

    /// The time of reading number `index`.
    func time(ofReading index: Int) -> Date {
        let time = start.addingTimeInterval(Double(index) * tick)
        return steppedBack.contains(index) ? time.addingTimeInterval(-3_600) : time
    }

    /// The next reading.
    func now() -> Date {
        let index = readings.withLock { readings in
            defer { readings += 1 }
            return readings
        }
        return time(ofReading: index)
    }
}

/// Ids stay strictly increasing when the wall clock steps back, and still carry a sane time.
@Suite("EventID across clock steps")
struct EventIDClockTests {
    static func milliseconds(_ date: Date) -> UInt64 { UInt64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func bytes(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }

    /// The consecutive pairs that are not strictly increasing, byte-wise or as strings.
    static func pairsOutOfOrder(_ ids: [UUID]) -> Int {
        zip(ids, ids.dropFirst()).filter { earlier, later in
            !bytes(earlier).lexicographicallyPrecedes(bytes(later)) || !(earlier.uuidString < later.uuidString)
        }.count
    }

    @Test("A clock stepped back one hour for 6,000 ids, then returned: every consecutive pair is strictly increasing",
          arguments: [0.000_1, 0.000_000_1])
    func stepBackAndReturn(tick: TimeInterval) {
        // 10 ids per millisecond, and 10,000 (more than the 12-bit counter holds: borrowing).
        let clock = SteppingClock(tick: tick, steppedBack: 2_000..<8_000)
        let generator = EventIDGenerator(clock: clock.now)
        let ids = (0..<10_000).map { _ in generator.make() }

        #expect(Self.pairsOutOfOrder(ids) == 0)
        #expect(Set(ids).count == ids.count)

        // Sane timestamps: never behind the latest time the clock showed, never far ahead of it,
        // and the clock's own time again as soon as it is past the last id's.
        var latest: UInt64 = 0
        var previous: UInt64 = 0
        var insane: [String] = []
        var exact = 0
        for (index, id) in ids.enumerated() {
            let shown = Self.milliseconds(clock.time(ofReading: index))
            latest = max(latest, shown)
            let stamp = EventID.milliseconds(of: id)
            if stamp < latest || stamp > latest + 1_000 { insane.append("id \(index): \(stamp) vs clock \(latest)") }
            if shown > previous {
                if stamp == shown { exact += 1 } else { insane.append("id \(index): \(stamp), clock ahead at \(shown)") }
            }
            previous = stamp
        }
        #expect(insane.isEmpty, "\(insane.count) ids with an odd timestamp, e.g. \(insane.prefix(3))")
        #expect(exact > 0)
    }

    @Test("Ids shared by 4 threads through a clock step stay strictly increasing on each thread and unique")
    func acrossThreads() {
        let clock = SteppingClock(tick: 0.000_001, steppedBack: 4_000..<16_000)
        let generator = EventIDGenerator(clock: clock.now)
        let collected = Collected()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            collected.set(thread, (0..<5_000).map { _ in generator.make() })
        }
        let perThread = collected.all
        #expect(perThread.count == 4)
        for (thread, ids) in perThread {
            #expect(ids.count == 5_000)
            #expect(Self.pairsOutOfOrder(ids) == 0, "thread \(thread)")
        }
        let all = perThread.values.flatMap { $0 }
        #expect(Set(all).count == 20_000)
        let earliest = Self.milliseconds(clock.start)
        let stamps = all.map(EventID.milliseconds(of:))
        #expect(stamps.allSatisfy { $0 >= earliest && $0 <= earliest + 1_000 }, "\(stamps.min() ?? 0)...\(stamps.max() ?? 0) vs \(earliest)")
    }

    @Test("The shared generator's ids are strictly increasing across threads too")
    func sharedGeneratorAcrossThreads() {
        let collected = Collected()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            collected.set(thread, (0..<5_000).map { _ in EventID.make() })
        }
        for (thread, ids) in collected.all { #expect(Self.pairsOutOfOrder(ids) == 0, "thread \(thread)") }
        #expect(Set(collected.all.values.flatMap { $0 }).count == 20_000)
    }

    @Test func backOrForwardDatedIdsKeepTheirTimeAndLeaveTheOrderAlone() {
        let clock = SteppingClock(tick: 0.001, steppedBack: 0..<0)
        let generator = EventIDGenerator(clock: clock.now)
        let first = generator.make()
        let past = Date(timeIntervalSince1970: 1_700_000_000.125)
        #expect(EventID.milliseconds(of: generator.make(at: past)) == 1_700_000_000_125)
        let future = clock.start.addingTimeInterval(86_400)
        #expect(EventID.milliseconds(of: generator.make(at: future)) == Self.milliseconds(future))
        let next = generator.make()
        #expect(Self.pairsOutOfOrder([first, next]) == 0)
        #expect(EventID.milliseconds(of: next) < Self.milliseconds(clock.start) + 1_000, "a forward-dated id dragged the order")
    }

    @Test func anIdForAReadingJustTakenCarriesItsTimeAndIsOrderedWithTheOthers() {
        let clock = SteppingClock(tick: 0.000_01, steppedBack: 0..<0)
        let generator = EventIDGenerator(clock: clock.now)
        var ids: [UUID] = []
        for index in 0..<1_000 {
            if index.isMultiple(of: 2) {
                ids.append(generator.make())
            } else {
                let now = clock.now()
                let id = generator.make(now: now)
                #expect(EventID.milliseconds(of: id) == Self.milliseconds(now))
                ids.append(id)
            }
        }
        #expect(Self.pairsOutOfOrder(ids) == 0)
    }

    @Test func aSentEventsIdCarriesItsTimestampOrALaterOneTheOrderNeeds() throws {
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder]).send(name: .add, action: .select)
        let event = try #require(recorder.events.first)
        // Equal unless ids made meanwhile on other threads (tests run in parallel) moved the
        // shared order past this reading: then the id keeps the later time.
        let idTime = EventID.milliseconds(of: event.id)
        let timestamp = Self.milliseconds(event.timestamp)
        #expect(idTime >= timestamp && idTime <= timestamp + 1_000, "\(idTime) vs \(timestamp)")
    }

    @Test func aDateNearNowIsOrderedWithTheOthers() {
        let clock = SteppingClock(tick: 0.000_01, steppedBack: 0..<0)
        let generator = EventIDGenerator(clock: clock.now)
        let ids = (0..<1_000).map { index in
            index.isMultiple(of: 2) ? generator.make() : generator.make(at: clock.start.addingTimeInterval(Double(index) * 0.000_01))
        }
        #expect(Self.pairsOutOfOrder(ids) == 0)
    }
}

/// Each thread's ids, kept thread-safely.
private final class Collected: Sendable {
    private let ids = LockedValue<[Int: [UUID]]>([:])

    func set(_ thread: Int, _ made: [UUID]) { ids.withLock { $0[thread] = made } }

    var all: [Int: [UUID]] { ids.withLock { $0 } }
}
