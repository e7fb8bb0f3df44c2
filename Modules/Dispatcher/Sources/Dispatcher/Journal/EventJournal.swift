import Foundation

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
final class EventJournal: @unchecked Sendable {
    // Unchecked: `condition` guards every `var` below and its segments' writable fields. It is an
    // NSCondition, not a LockedValue, because the consumer waits on it (``waitForRecords``).
    let condition = NSCondition()
    var segments: [JournalSegment] = []
    var spare: JournalSegment?
    var preparing: UInt64?
    var nextNumber: UInt64
    var appended = 0
    var consumer = ConsumerState.running
    /// `appended` when the consumer started its current wait: what it has not consumed is counted from here.
    var lingerBase = 0
    /// How many times an append woke the consumer (tests and diagnostics).
    var producerWakeUps: Int { condition.withLock { wakeUpCount } }
    var wakeUpCount = 0
    var wakeRequested = false
    var isClosed = false
    /// The capacity of the live segments, against ``JournalConfiguration/maxBytes``.
    var liveBytes = 0
    /// After a failed segment creation: no new attempt before this moment.
    var creationPausedUntil: Date?
    var creationFailures = 0
    var lastCreationError: JournalError?
    /// After a failed ahead-of-time creation: no new one before this moment.
    var preparePausedUntil: Date?
    /// Consumed segment files waiting to be reused (see ``JournalSegment/reuse(_:directory:number:capacity:)``),
    /// at most ``maxFreeFiles``; beyond the byte budget, as they hold no records.
    var freeFiles: [String] = []
    /// How many consumed segment files wait for reuse at most.
    static let maxFreeFiles = 2
    /// Where ``maintainPagesInBackground(consumed:force:)`` runs: off the consumer, the ingest's bottleneck.
    let pageQueue = DispatchQueue(label: "tracking.journal.pages", qos: .utility)
    /// Whether a ``maintainPagesInBackground(consumed:force:)`` is queued and has not started.
    var pageWorkQueued = false
    /// The consumer's committed position, as of its last ``maintainPagesInBackground(consumed:force:)``.
    var consumedPosition = JournalPosition.start
    /// `appended` when page work was last queued.
    var pageWorkAppended = 0
    /// Records appended between two queued rounds of page work: about 200 KiB of a typical event.
    static let pageWorkRecords = 2_048

    /// The folder holding the segment files.
    let directory: String
    /// Segment size and count bound.
    let configuration: JournalConfiguration
    /// What the journal noticed about its own files while running (a segment deleted, cut short or
    /// made unwritable, the folder recreated), waiting for the owner to report (``takeNotices()``).
    var notices: [String] = []
    /// Records lost while running, by cause (a segment cut short under the journal).
    var lossesWhileRunning: [JournalLossCause: Int] = [:]
    /// When an append last checked the active segment's file (``CoarseClock`` nanoseconds).
    var lastFileCheck: UInt64 = 0

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

    /// What the consumer is doing, as far as appends are concerned.
    enum ConsumerState {
        /// Not waiting: appends need not wake it.
        case running
        /// Waiting with nothing to read: the next append wakes it.
        case sleeping
        /// Waiting for more records to gather: appends wake it only when many are waiting.
        case lingering
    }

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
        segments = found
        liveBytes = found.reduce(0) { $0 + $1.capacity }
        leftoverSegments = found.count
        self.damage = damage
        nextNumber = highest + 1
    }

    /// Closes the journal: appends fail with ``JournalError/closed``, and the unused spare
    /// segment and the files waiting for reuse are deleted. Segment files with events stay for
    /// the next run.
    func close() {
        let (unused, free): (JournalSegment?, [String]) = condition.withLock {
            isClosed = true
            condition.broadcast()
            defer {
                spare = nil
                freeFiles = []
            }
            return (spare, freeFiles)
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
