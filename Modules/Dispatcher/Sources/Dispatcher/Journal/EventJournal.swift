import Foundation
import Tracking

/// The fast, crash-safe front of the store: an append-only log of events in memory-mapped
/// segment files that the kernel keeps when the process dies.
///
/// Once ``append(_:)`` returns, the event survives `kill -9` (its bytes are in the page cache),
/// not power loss until the ingest writer commits it to SQLite (or ``sync()`` ran). One consumer
/// (the ``IngestWriter``) reads in order (``readBorrowed(from:maxRecords:)``), waits
/// (``waitForRecords(after:timeout:)``) and discards consumed segments (``discard(before:)``).
/// Appends wake an idle consumer on the first record, then let it linger ``lingerInterval``
/// unless ``wakeThreshold`` records wait. Leftover segments are replayed sealed, damaged records
/// skipped and counted (``damage``); after a failed segment creation (full disk) appends fail
/// without a system call for a growing pause (50 ms to 2 s).
final class EventJournal: Sendable {
    /// What appends, the consumer and the page work share (see ``State``).
    let state: LockedValue<State>
    /// How many times an append woke the consumer (tests and diagnostics).
    var producerWakeUps: Int { state.withLock { $0.wakeUpCount } }
    /// How many consumed segment files wait for reuse at most.
    static let maxFreeFiles = 2
    /// Where ``maintainPagesInBackground(consumed:force:)`` runs: off the consumer, the ingest's bottleneck.
    let pageQueue = DispatchQueue(label: "tracking.journal.pages", qos: .utility)
    /// Records appended between two queued rounds of page work: about 200 KiB of a typical event.
    static let pageWorkRecords = 2_048

    /// The folder holding the segment files.
    let directory: String
    /// Segment size and count bound.
    let configuration: JournalConfiguration
    /// Segments that an earlier run left behind, found when opening.
    let leftoverSegments: Int
    /// The damage found in the leftover segments when opening (empty when none).
    let damage: JournalDamage
    /// Data protection that could not be applied to a folder made when opening (for the owner to report).
    let protectionProblems: [String]
    /// How long the consumer, woken by a first record, waits for more before taking them.
    let lingerInterval: TimeInterval
    /// How many waiting records make an append wake a lingering consumer at once.
    static let wakeThreshold = 256

    /// Opens (creating if needed, mode 0700) a journal folder and keeps its leftover segments.
    /// - Parameters:
    ///   - directory: the folder.
    ///   - configuration: segment size and count bound.
    ///   - minimumSegment: new segments are numbered above this (the store's last known position),
    ///     so a number is never reused even when every file was deleted.
    ///   - lingerInterval: how long a woken consumer waits for more records. Defaults to 2 ms.
    /// - Throws: ``StoreError`` when the folder cannot be created, ``JournalError`` when it cannot be read.
    init(directory: String, configuration: JournalConfiguration = JournalConfiguration(), minimumSegment: UInt64 = 0,
                lingerInterval: TimeInterval = 0.002) throws {
        self.directory = directory
        self.configuration = configuration
        self.lingerInterval = max(0, lingerInterval)
        protectionProblems = try FileProtection.createDirectory(atPath: directory)
        let names: [String]
        do { names = try DirectoryListing.names(atPath: directory) } catch {
            throw JournalError.io(path: directory, operation: "list", errno: error.code)
        }
        var found: [JournalSegment] = []
        var damage = JournalDamage()
        var highest = minimumSegment
        for name in names.sorted() {
            if name.hasSuffix(JournalSegment.freeSuffix) {
                unlink(directory + "/" + name)
                continue
            }
            guard let number = JournalSegment.number(fromFileName: name) else { continue }
            highest = max(highest, number)
            if let segment = try JournalSegment.openLeftover(directory: directory, name: name) {
                found.append(segment)
            } else if JournalSegment.setAsideUnreadable(directory: directory, name: name) {
                damage.addUnreadable(name: name)
            }
        }
        found.sort { $0.number < $1.number }
        Self.countLostLastRecords(found)
        for segment in found { if let scan = segment.scan { damage.add(scan, name: JournalSegment.fileName(segment.number)) } }
        var state = State(directory: directory, configuration: configuration, nextNumber: highest + 1)
        state.segments = found
        state.liveBytes = found.reduce(0) { $0 + $1.capacity }
        self.state = LockedValue(state)
        leftoverSegments = found.count
        self.damage = damage
    }

    /// Closes the journal: appends fail with ``JournalError/closed``, and the unused spare
    /// segment and the files waiting for reuse are deleted. Segment files with events stay for
    /// the next run.
    func close() {
        let (unused, free): (JournalSegment?, [String]) = state.withLockWakingWaiters { state in
            state.isClosed = true
            defer {
                state.spare = nil
                state.freeFiles = []
            }
            return (state.spare, state.freeFiles)
        }
        unused?.remove()
        for path in free { unlink(path) }
    }

    /// Adds to each leftover segment's losses the last records its successor's seal says it held
    /// but that did not check (cut off, or damaged at the very end).
    private static func countLostLastRecords(_ segments: [JournalSegment]) {
        let byNumber = Dictionary(segments.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        for segment in segments {
            guard let seal = segment.scan?.sealOfPrevious, let previous = byNumber[seal.previous],
                  previous.format >= 3, let seen = previous.scan?.nextSequence, seal.records > seen else { continue }
            previous.scan?.lostRecords += Int(seal.records - seen)
        }
    }
}
