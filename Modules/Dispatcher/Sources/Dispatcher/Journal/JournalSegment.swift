import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One memory-mapped segment file of an ``EventJournal``, created at full size with its blocks
/// allocated (a full disk fails here, not with `SIGBUS` later), mode 0600, mapped `MAP_SHARED`.
///
/// Only a ``runway`` of pages ahead of the end of records is kept resident; pages written and
/// read are handed back (``releasePages(below:all:)``). Header (16 bytes): the magic, which names
/// the record format (`TRKJRNL3` written; `TRKJRNL2`, `TRKJRNL1` still read), and the segment
/// number, little-endian.
final class JournalSegment: @unchecked Sendable {
    // Unchecked: `base` is mapped memory (a raw pointer), written only under the journal's `state` lock
    // and read only below an `end` published under it. `end`, `sealed`, `nextSequence`,
    // `journalledContexts`, `lastJournalledContext`, `storedEnd`, `storedSequence` and `fault` are guarded by that lock;
    // `identity` is set before the segment is shared; the page marks have one writer each.
    static let headerSize = 16
    static let magic: UInt64 = 0x334C_4E52_4A4B_5254 // "TRKJRNL3" little-endian
    /// The magic of format 2 segments (no record marker or sequence: reading stops at damage).
    static let format2Magic: UInt64 = 0x324C_4E52_4A4B_5254 // "TRKJRNL2" little-endian
    /// The magic of format 1 segments (full context in every event record).
    static let legacyMagic: UInt64 = 0x314C_4E52_4A4B_5254 // "TRKJRNL1" little-endian

    /// The record format of a segment whose header starts with `magic`, or `nil` when it is not one.
    static func format(magic value: UInt64) -> Int? {
        switch value {
        case magic: 3
        case format2Magic: 2
        case legacyMagic: 1
        default: nil
        }
    }

    let number: UInt64
    let path: String
    let capacity: Int
    let base: UnsafeMutableRawPointer
    /// The record format (3 for new segments, 2 or 1 for those earlier versions left).
    let format: Int
    /// The sequence number of the next record written (guarded by the journal's lock).
    var nextSequence: UInt32 = 0
    /// What opening found in a segment left by an earlier run (`nil` for one created here).
    var scan: JournalScan?
    /// Whether damage was found: the file is kept aside once replayed, not deleted.
    var isDamaged: Bool { scan?.isDamaged ?? false }
    /// The shared contexts written in this segment (guarded by the journal's lock).
    var journalledContexts: Set<UInt64> = []
    /// The shared context of the last event written here, one of ``journalledContexts``
    /// (guarded by the journal's lock): the usual event's is found without a set lookup.
    var lastJournalledContext: UInt64?
    /// The shared contexts read from this segment so far (touched only by the consumer).
    var readContexts: [UInt64: EncodedSharedContext] = [:]
    /// The end of valid records.
    var end: Int
    /// How far the consumer has stored this segment's records, and the sequence of the first
    /// record it has not stored (guarded by the journal's lock; see ``EventJournal/noteStored(_:)``).
    var storedEnd = 0
    var storedSequence: UInt32 = 0
    /// The file as created here (device, inode), to notice it deleted, replaced or cut short
    /// while in use (see ``checkFile()``); `nil` for a segment left by an earlier run.
    var identity: FileIdentity?
    /// What happened to the file while in use, once noticed (guarded by the journal's lock).
    var fault: FileFault?
    /// Whether appends have moved on to a later segment.
    var sealed: Bool
    /// Whether this process created the segment: its records were copied in by this process and
    /// published under the journal's lock, so reading them needs no checksum. Records of a
    /// segment left by an earlier run are checked.
    let createdHere: Bool
    /// How this segment's records are framed.
    var framing: JournalRecord.Framing { JournalRecord.Framing(format: format, number: number, checked: !createdHere) }
    /// The offset below which the mapping's pages were handed back (see ``releasePages(below:)``);
    /// touched only by the journal's page work (``EventJournal/maintainPagesInBackground(consumed:force:)``).
    private(set) var releasedBelow = 0
    /// The offset below which pages were made resident and writable ahead of the sender
    /// (touched only by the thread creating the segment, then by the journal's page work).
    private(set) var populatedBelow = 0
    /// How many bytes ahead of the end of records are kept resident and writable, so that the
    /// sender rarely takes a page fault.
    static let runway = 512 << 10

    static func fileName(_ number: UInt64) -> String {
        let digits = String(number)
        return "segment-" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".journal"
    }

    static func number(fromFileName name: String) -> UInt64? {
        guard name.hasPrefix("segment-"), name.hasSuffix(".journal") else { return nil }
        return UInt64(name.dropFirst(8).dropLast(8))
    }

    init(number: UInt64, path: String, capacity: Int, base: UnsafeMutableRawPointer, format: Int, end: Int, sealed: Bool) {
        self.number = number
        createdHere = !sealed
        self.format = format
        self.path = path
        self.capacity = capacity
        self.base = base
        self.end = end
        self.sealed = sealed
    }

    deinit { munmap(base, capacity) }

    /// Creates a new, zero-filled segment of `capacity` bytes.
    static func create(directory: String, number: UInt64, capacity: Int) throws(JournalError) -> JournalSegment {
        let path = directory + "/" + fileName(number)
        let descriptor = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, FileProtection.fileMode)
        guard descriptor >= 0 else { throw .io(path: path, operation: "create", errno: errno) }
        defer { close(descriptor) }
        _ = fchmod(descriptor, FileProtection.fileMode)
        do {
            try allocate(descriptor, capacity: capacity, path: path)
            let segment = try fresh(descriptor, mappedFrom: path, number: number, path: path, capacity: capacity)
            // Inherits the journal folder's class; set explicitly for a folder made before it had one.
            _ = FileProtection.protect(path)
            segment.identity = FileIdentity(path: path)
            return segment
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Maps the open file as a new, empty segment `number` (to be named `path`): its first
    /// runway made resident, then its header written.
    private static func fresh(_ descriptor: Int32, mappedFrom mappedPath: String, number: UInt64, path: String,
                              capacity: Int) throws(JournalError) -> JournalSegment {
        let base = try map(descriptor, capacity: capacity, path: mappedPath, populate: false)
        let segment = JournalSegment(number: number, path: path, capacity: capacity, base: base, format: 3, end: headerSize, sealed: false)
        segment.populateAhead(of: 0)
        base.storeBytes(of: magic.littleEndian, as: UInt64.self)
        base.storeBytes(of: number.littleEndian, toByteOffset: 8, as: UInt64.self)
        return segment
    }

    /// The name a consumed segment file waits under until it is reused: never read as a segment,
    /// and deleted when a journal opens.
    static func freeName(_ number: UInt64) -> String { fileName(number) + freeSuffix }
    /// The suffix of ``freeName(_:)``.
    static let freeSuffix = ".free"

    /// Makes a consumed segment file, waiting at `freePath`, segment `number`: its blocks are
    /// allocated and its pages likely cached, so this costs far less than creating a file. The new
    /// header is written before the file takes its segment name (a crash in between leaves only a
    /// free file), and the records of its earlier life fail the checksum seeded with the new number.
    /// - Throws: when the file is not `capacity` bytes or the name is taken (the free file stays).
    static func reuse(_ freePath: String, directory: String, number: UInt64, capacity: Int) throws(JournalError) -> JournalSegment {
        let path = directory + "/" + fileName(number)
        let descriptor = open(freePath, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: freePath, operation: "open", errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Int(info.st_size) == capacity else { throw .io(path: freePath, operation: "reuse", errno: EINVAL) }
        let segment = try fresh(descriptor, mappedFrom: freePath, number: number, path: path, capacity: capacity)
        // `link` never replaces a file that appeared under the name meanwhile.
        guard link(freePath, path) == 0 else { throw .io(path: path, operation: "link", errno: errno) }
        unlink(freePath)
        segment.identity = FileIdentity(path: path)
        return segment
    }

    /// Moves the file to `freePath` for reuse (see ``reuse(_:directory:number:capacity:)``).
    /// - Returns: whether it moved.
    func retire(to freePath: String) -> Bool { rename(path, freePath) == 0 }

    /// Maps a segment file, its (already cached) pages faulted in now when `populate` is set (Linux).
    static func map(_ descriptor: Int32, capacity: Int, path: String, populate: Bool) throws(JournalError) -> UnsafeMutableRawPointer {
        #if os(Linux)
        let flags = populate ? MAP_SHARED | MAP_POPULATE : MAP_SHARED
        #else
        let flags = MAP_SHARED
        #endif
        let address = mmap(nil, capacity, PROT_READ | PROT_WRITE, flags, descriptor, 0)
        guard let address, address != MAP_FAILED else { throw .io(path: path, operation: "mmap", errno: errno) }
        return address
    }

    /// Makes the pages from `end` up to ``runway`` bytes ahead resident and writable, on the
    /// thread preparing the segment or the journal's page work: the first store into a clean shared page
    /// costs a fault, which the sender should not pay. Safe while the sender writes: the pages'
    /// bytes are not touched (`MADV_POPULATE_WRITE`, Linux 5.14+). Where that is not available,
    /// the first call, on a NEW all-zero segment not yet visible to senders, dirties every page
    /// instead, and later calls do nothing.
    func populateAhead(of end: Int) {
        let limit = min(capacity, (end + Self.runway + Self.pageSize - 1) / Self.pageSize * Self.pageSize)
        guard limit > populatedBelow else { return }
        let start = max(populatedBelow, end / Self.pageSize * Self.pageSize)
        #if os(Linux)
        if madvise(base + start, limit - start, Self.populateWrite) == 0 {
            populatedBelow = limit
            return
        }
        #endif
        guard populatedBelow == 0, end == 0 else { return }
        var offset = 0
        while offset < capacity {
            base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
            offset += Self.pageSize
        }
        populatedBelow = capacity
    }

    #if os(Linux)
    /// `MADV_POPULATE_WRITE`, which Glibc's module map does not export.
    private static let populateWrite: Int32 = 23
    #endif

    /// Reads the records between `offset` and `limit`, at most `maxRecords`.
    /// - Returns: the events, the offset after them, and whether reading stopped at a damaged record.
    /// The pages read are handed back ``releaseChunk`` at a time (the records stay in the page
    /// cache until the segment is discarded), so reading a backlog does not make it resident.
    func read(from offset: Int, to limit: Int, maxRecords: Int) -> (events: [EncodedEvent], next: Int, damaged: Bool) {
        let start = max(offset, Self.headerSize)
        let result = JournalRecord.readEvents(in: base, from: start, to: limit, framing: framing,
                                              maxRecords: maxRecords, contexts: &readContexts)
        releaseRead(below: result.next)
        return result
    }

    /// Hands back the pages the consumer has read below `offset`, ``releaseChunk`` at a time
    /// (one thread: the journal's page work, or ``read(from:to:maxRecords:)`` for a journal read
    /// without one, as in recovery). Reading faults a mapping's pages in again after
    /// ``releasePages(below:all:)`` handed them back; without this they would stay resident until
    /// the segment is discarded. Safe while records read there are still borrowed: a later access
    /// faults the same bytes back in from the page cache.
    func releaseRead(below offset: Int) {
        guard offset - readReleasedBelow >= Self.releaseChunk else { return }
        handBack(readReleasedBelow..<offset)
        readReleasedBelow = offset / Self.pageSize * Self.pageSize
    }

    /// The fewest bytes handed back at once: each call unmaps pages in every thread of the
    /// process (a TLB shootdown), so it is made rarely.
    static let releaseChunk = 512 << 10
    /// The offset below which pages read by the consumer were handed back (see ``releaseRead(below:)``).
    private var readReleasedBelow = 0

    /// Hands back to the kernel the mapping's whole pages below `offset` that were not handed back
    /// yet, so written records do not keep the process's resident memory growing while the
    /// sender runs ahead of the writer. Called by the journal's page work only, with `offset` at or below
    /// the end of written records: no append ever stores below it again.
    ///
    /// On a shared file mapping the bytes stay in the page cache (dirty pages are written back as
    /// usual): a later read faults them in again, so nothing is lost. On Darwin the pages are
    /// written back and marked reclaimable instead (see `DarwinPageRelease`).
    ///
    /// Pages go back ``releaseChunk`` at a time, or all at once with `all` (a sealed segment).
    func releasePages(below offset: Int, all: Bool = true) {
        let limit = min(offset, capacity) / Self.pageSize * Self.pageSize
        guard limit > releasedBelow, all || limit - releasedBelow >= Self.releaseChunk else { return }
        handBack(releasedBelow..<limit)
        releasedBelow = limit
    }

    /// The system's memory page size.
    static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// Deletes the file (the mapping stays valid until the last reference goes).
    func remove() { unlink(path) }

    /// Asks the kernel to write the mapping to disk (power-loss durability for what is there).
    func sync() { _ = msync(base, capacity, MS_ASYNC) }
}
