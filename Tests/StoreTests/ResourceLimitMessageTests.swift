@testable import Dispatcher
import Foundation
import Testing

/// The errors of a resource that ran out name the process limit, whatever reports them: SQLite
/// (its extended result code with the system `errno` behind it), the journal, a folder listing.
@Suite("Resource limits named in errors")
struct ResourceLimitMessageTests {
    @Test("SQLITE_CANTOPEN with EMFILE is out of file descriptors, not a read-only store")
    func sqliteOutOfDescriptors() {
        let cause = SQLiteError(extendedCode: SQLiteError.cannotOpen, message: "unable to open database file",
                                sql: "BEGIN IMMEDIATE", systemErrno: EMFILE)
        let text = StoreError.from(cause, path: "/s.sqlite").description
        #expect(text.contains("out of file descriptors (RLIMIT_NOFILE = \(ResourceLimit.current(.descriptors)))"), "\(text)")
        #expect(!text.contains("read-only"), "\(text)")
        // Without a resource behind it, a file SQLite cannot open is still reported as before.
        let plain = SQLiteError(extendedCode: SQLiteError.cannotOpen, message: "unable to open database file", systemErrno: EACCES)
        #expect(StoreError.from(plain, path: "/s.sqlite").description.contains("read-only"))
    }

    @Test("SQLITE_NOMEM and a journal map failing with ENOMEM are out of address space")
    func outOfAddressSpace() {
        let nomem = SQLiteError(extendedCode: SQLiteError.noMemory, message: "out of memory")
        #expect(StoreError.from(nomem, path: "/s.sqlite").description.contains("out of address space (RLIMIT_AS = "))
        let journal = JournalError.io(path: "/j/segment-1.journal", operation: "mmap", errno: ENOMEM).description
        #expect(journal.contains("journal mmap failed"), "\(journal)")
        #expect(journal.contains("out of address space (RLIMIT_AS = \(ResourceLimit.current(.addressSpace))"), "\(journal)")
    }

    @Test("A folder listing keeps the system error (not Foundation's code 256)")
    func listingKeepsErrno() throws {
        #expect(throws: DirectoryListing.Failure.self) { try DirectoryListing.names(atPath: "/nonexistent-\(UUID())") }
        do { _ = try DirectoryListing.names(atPath: "/nonexistent-\(UUID())") } catch { #expect(error.code == ENOENT) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["a", "b.journal"] { _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: nil) }
        #expect(try DirectoryListing.names(atPath: folder).sorted() == ["a", "b.journal"])
    }

    @Test("The probes: a few descriptors, a small reservation and a thread are available here")
    func probes() {
        #expect(ResourceLimit.descriptorsAvailable(ResourceLimit.storeDescriptors))
        #expect(ResourceLimit.canReserve(1 << 20))
        #expect(ResourceLimit.canAllocate(1 << 16))
        #expect(ResourceLimit.threadCreationFailure() == nil)
        #expect(ResourceLimit.exhaustion(EACCES) == nil)
    }
}
