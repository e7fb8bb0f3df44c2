import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Segments an earlier run left: opening them (skipping damage), setting aside what cannot be read
// or was damaged.
extension JournalSegment {
    /// Opens a segment left by an earlier run, sealed, with its end after the last record that
    /// checks and what damage took recorded in ``scan``. A damaged header does not lose the
    /// records: they are read with the number in the file name (each checks on its own). Returns
    /// `nil` when the file is not a segment (too short, or no record checks under a damaged header).
    static func openLeftover(directory: String, name: String) throws(JournalError) -> JournalSegment? {
        guard let number = number(fromFileName: name) else { return nil }
        let path = directory + "/" + name
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, operation: "open", errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .io(path: path, operation: "stat", errno: errno) }
        let size = Int(info.st_size)
        guard size >= headerSize + 8 else { return nil }
        let base = try map(descriptor, capacity: size, path: path, populate: true)
        let stated = format(magic: UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)))
        let headerIntact = stated != nil && UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == number
        for format in stated.map({ headerIntact ? [$0] : [$0, 3, 2, 1] }) ?? [3, 2, 1] {
            var contexts: [UInt64: EncodedSharedContext] = [:]
            let framing = JournalRecord.Framing(format: format, number: number)
            var scan = JournalScan.scan(in: base, from: headerSize, to: size, framing: framing, contexts: &contexts)
            guard headerIntact || scan.end > headerSize else { continue }
            scan.headerDamaged = !headerIntact
            // Segments are made a whole number of pages long: a shorter file was cut.
            scan.truncated = size % 4_096 != 0
            let segment = JournalSegment(number: number, path: path, capacity: size, base: base, format: format, end: scan.end, sealed: true)
            segment.readContexts = contexts
            segment.scan = scan
            return segment
        }
        munmap(base, size)
        return nil
    }

    /// Moves a file named like a segment that is not one out of the way: removed when it is too
    /// short to hold a record (a process killed while creating it leaves an empty file), otherwise
    /// renamed `<name>.unreadable` and kept. Either way its number is never reused.
    /// - Returns: whether the file was kept aside (not an empty leftover).
    static func setAsideUnreadable(directory: String, name: String) -> Bool {
        let path = directory + "/" + name
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        if Int(info.st_size) < headerSize + 8 {
            unlink(path)
            return false
        }
        _ = rename(path, path + ".unreadable")
        return true
    }

    /// The suffix of a replayed segment kept aside because damage was found in it.
    static let damagedSuffix = ".damaged"

    /// Keeps a replayed, damaged segment for inspection as `<name>.damaged` (never read again).
    func keepAside() { _ = rename(path, path + Self.damagedSuffix) }
}
