import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the events of a journal folder without writing anything: for a reader (the monitor)
/// looking at a journal that a live or killed writer owns.
///
/// Unlike opening an ``EventJournal``, nothing is created, replayed, renamed or deleted: each
/// segment is opened `O_RDONLY` and mapped `PROT_READ`, and records are read up to the first
/// zero, torn or damaged one (a record being written is skipped, as its length comes last).
/// A missing folder, or a segment deleted meanwhile, simply has no events.
enum JournalReader {
    /// The events in the segments of `directory` at or after `position` (a record boundary, as
    /// the ingest writer stores it), in append order, each with its full (merged) context.
    static func events(in directory: String, after position: JournalPosition) -> [EncodedEvent] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let numbered = names.compactMap { name in JournalSegment.number(fromFileName: name).map { (number: $0, name: name) } }
            .filter { $0.number >= position.segment }
            .sorted { $0.number < $1.number }
        var events: [EncodedEvent] = []
        for segment in numbered {
            let start = segment.number == position.segment ? position.offset : 0
            events.append(contentsOf: read(directory + "/" + segment.name, number: segment.number, from: start))
        }
        return events
    }

    /// ``events(in:after:)`` with where each event's record ends, so that a caller holding a later
    /// writer's position (see ``JournalReader/PlacedEvent/isAfter(_:)``) can drop what that
    /// writer had already stored.
    static func placedEvents(in directory: String, after position: JournalPosition) -> [PlacedEvent] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let numbered = names.compactMap { name in JournalSegment.number(fromFileName: name).map { (number: $0, name: name) } }
            .filter { $0.number >= position.segment }
            .sorted { $0.number < $1.number }
        var events: [PlacedEvent] = []
        for segment in numbered {
            let start = segment.number == position.segment ? position.offset : 0
            events.append(contentsOf: read(directory + "/" + segment.name, number: segment.number, from: start, placed: true))
        }
        return events
    }

    /// An event read from the journal, with the segment and offset its record ends at.
    struct PlacedEvent {
        /// The event, with its full context.
        let event: EncodedEvent
        /// The segment number.
        let segment: UInt64
        /// The offset just after its record in that segment.
        let end: Int

        /// Whether the event lies at or after `position` (a record boundary): not yet consumed by
        /// a writer that recorded `position`.
        func isAfter(_ position: JournalPosition) -> Bool {
            segment > position.segment || (segment == position.segment && end > position.offset)
        }
    }

    /// The readable records of one segment file from `offset` on.
    private static func read(_ path: String, number: UInt64, from offset: Int) -> [EncodedEvent] {
        read(path, number: number, from: offset, placed: false).map(\.event)
    }

    /// The readable records of one segment file from `offset` on; with `placed`, each record's end
    /// is found by reading one event at a time (otherwise `end` is 0).
    private static func read(_ path: String, number: UInt64, from offset: Int, placed: Bool) -> [PlacedEvent] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return [] }
        let size = Int(info.st_size)
        guard size >= JournalSegment.headerSize + 8 else { return [] }
        guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED else { return [] }
        defer { munmap(address, size) }
        let base = UnsafeRawPointer(address)
        guard let format = JournalSegment.format(magic: UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))),
              UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == number else { return [] }
        // From the start: the shared contexts the events after `offset` refer to come before them.
        var contexts: [UInt64: EncodedSharedContext] = [:]
        let framing = JournalRecord.Framing(format: format, number: number)
        // An event whose binary parts cannot be read is still listed, as it is: never dropped.
        func listed(_ event: EncodedEvent, end: Int) -> PlacedEvent {
            PlacedEvent(event: (try? event.readable()) ?? event, segment: number, end: end)
        }
        guard placed else {
            return JournalRecord.readEvents(in: base, from: JournalSegment.headerSize, to: size, framing: framing, maxRecords: .max,
                                            emitFrom: offset, contexts: &contexts).events.map { listed($0, end: 0) }
        }
        var events: [PlacedEvent] = []
        var next = JournalSegment.headerSize
        while next < size {
            let one = JournalRecord.readEvents(in: base, from: next, to: size, framing: framing, maxRecords: 1,
                                               emitFrom: offset, contexts: &contexts)
            guard let event = one.events.first else { break }
            events.append(listed(event, end: one.next))
            next = one.next
        }
        return events
    }
}
