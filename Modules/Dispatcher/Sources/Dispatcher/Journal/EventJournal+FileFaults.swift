import Foundation
@_spi(Clocks) import Tracking

// A segment's file changed under the journal while running (deleted, cut short, made immutable),
// or the journal's folder deleted: noticed, left behind, the folder made again, losses counted.
//
// A store into a shared mapping whose file was cut short ends the process with SIGBUS, and a
// library installs no signal handler; so the active segment's file is checked by the first
// append after ``appendCheckInterval`` passed since the last check (on a coarse clock that costs
// no system call: an app that sends now and then checks before every send); by the page work
// every ``pageWorkRecords`` records; at each rotation (the spare); and by the ingest writer when
// it wakes for new records or a wait for persistence, at most every quarter of a second (asleep
// while idle, it checks nothing until the next append). What remains: a file cut short between a
// check and the next store into the cut part, which back-to-back appends can hit.

extension EventJournal {
    /// Checks the active segment's file (see ``JournalSegment/checkFile()``) and leaves the
    /// segment when it changed. From any thread; the system calls run outside the lock.
    func checkActiveSegment() {
        let active: JournalSegment? = state.withLock { state in
            guard !state.isClosed, let last = state.segments.last, !last.sealed, last.fault == nil else { return nil }
            return last
        }
        guard let active, let fault = active.checkFile() else { return }
        state.withLock { $0.handleFault(active, fault) }
    }

    /// The shortest time between two checks by appends: 1 ms, in nanoseconds (on Linux the
    /// coarse clock moves by a scheduler tick, 1 to 10 ms).
    static let appendCheckInterval: UInt64 = 1_000_000

    /// Records how far the consumer has stored each segment (see ``JournalReadMark``), so that
    /// a cut counts only the records not stored yet. Consumer only.
    func noteStored(_ marks: [JournalReadMark]) {
        guard !marks.isEmpty else { return }
        state.withLock { _ in
            for mark in marks where mark.offset > mark.segment.storedEnd {
                mark.segment.storedEnd = mark.offset
                mark.segment.storedSequence = mark.sequence
            }
        }
    }

    /// Whether one of `segments` was cut while in use: a batch borrowed from it before the cut
    /// must be dropped and read again (the bytes past the cut read as zeros now).
    func wasCut(_ segments: [JournalSegment]) -> Bool {
        state.withLock { _ in segments.contains { if case .cut = $0.fault { true } else { false } } }
    }

    /// What the journal noticed about its files since the last call, emptied.
    func takeNotices() -> [JournalNotice] {
        state.withLock { state in
            defer { state.notices.removeAll() }
            return state.notices.map(JournalNotice.init)
        }
    }

    /// Records lost while running, by cause.
    var lossesSinceOpen: [JournalLossCause: Int] { state.withLock { $0.lossesWhileRunning } }
}

extension EventJournal.State {
    /// The same check, before an append, when ``appendCheckInterval`` passed since the last
    /// one.
    @inline(__always)
    mutating func checkBeforeWriting() {
        let now = CoarseClock.nanoseconds()
        guard now &- lastFileCheck >= EventJournal.appendCheckInterval else { return }
        lastFileCheck = now
        guard let active = segments.last, !active.sealed, active.fault == nil, let fault = active.checkFile() else { return }
        handleFault(active, fault)
    }

    /// Leaves `segment` (sealed: the next append goes to a new one), gives a cut file its size
    /// back so that reading it cannot fault, counts the records past the cut as lost, and
    /// records a notice.
    mutating func handleFault(_ segment: JournalSegment, _ fault: JournalSegment.FileFault) {
        guard segment.fault == nil else { return }
        segment.fault = fault
        segment.sealed = true
        let name = JournalSegment.fileName(segment.number)
        switch fault {
        case .removed:
            var text = "journal segment \(name) was deleted or replaced while in use: its records are stored from memory "
                + "(they would not survive the process ending first); appends moved to a new segment"
            if FileIdentity(path: directory) == nil, recreateFolder(noting: false) {
                text += "; the journal folder \(directory) was deleted and is made again (mode 0700)"
            }
            notices.append(text)
        case .cut(let size):
            let (lost, intactEnd) = segment.recordsLost(cutAt: size)
            let restored = segment.restoreSize()
            // What was not stored yet is read again up to the cut (a batch read before it is dropped).
            if restored { segment.end = max(intactEnd, min(segment.storedEnd, segment.end)) }
            if lost > 0 { lossesWhileRunning[.cutWhileRunning, default: 0] += lost }
            notices.append("journal segment \(name) was cut to \(size) bytes while in use: \(lost) record\(lost == 1 ? "" : "s") past the cut "
                + "lost; appends moved to a new segment" + (restored ? "" : "; its size could not be restored"))
        case .unwritable:
            notices.append("journal segment \(name) was made immutable or append-only while in use: appends moved to a new segment")
        }
    }

    /// Makes the journal folder again (mode 0700, protected) when it was deleted while running.
    /// - Returns: whether the folder exists now.
    mutating func recreateFolder(noting: Bool = true) -> Bool {
        guard FileIdentity(path: directory) == nil else { return false }
        guard (try? FileProtection.createDirectory(atPath: directory)) != nil else { return false }
        if noting { notices.append("the journal folder \(directory) was deleted while running and is made again (mode 0700)") }
        return true
    }
}

/// How far one read went in a segment: to `offset`, where the next record's sequence is `sequence`.
struct JournalReadMark {
    let segment: JournalSegment
    let offset: Int
    let sequence: UInt32
}

/// Something the journal noticed about its files and handled, for the owner to report.
struct JournalNotice: Error, Sendable, CustomStringConvertible {
    /// What happened and what was done.
    var description: String
}
