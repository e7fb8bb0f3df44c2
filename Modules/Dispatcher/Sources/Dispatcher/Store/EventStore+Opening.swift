import Foundation
import Tracking

// Opening, recovery of a damaged file, and the locked access every operation goes through.
extension EventStore {
    /// Opens the file for writing (the caller holds the lock), setting a damaged one aside.
    func openLocked(_ state: inout State) throws {
        try ResourceLimit.requireStoreDescriptors(path: path)
        let folder = StorePath.folder(of: path)
        if !folder.isEmpty { state.protectionProblems += try FileProtection.createDirectory(atPath: folder) }
        do {
            try openFile(&state)
        } catch let error as SQLiteError where error.isCorruption {
            // Rename before closing: closing would otherwise delete the damaged `-wal` with it.
            let aside = FileProtection.setAside(path)
            state.database?.close()
            state.database = nil
            guard let aside else {
                throw StoreError.corrupt(path: path, setAsidePath: nil, cause: error.description)
            }
            state.recovered = aside
            do { try openFile(&state) } catch let error as SQLiteError { throw StoreError.from(error, path: path) }
        } catch let error as SQLiteError {
            state.database?.close()
            state.database = nil
            throw StoreError.from(error, path: path)
        }
    }

    /// Opens the file read-only and reads the counters; writes nothing.
    func openForReadingLocked(_ state: inout State) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "no store file to read", errno: ENOENT)
        }
        // Reading a FIFO or a device would block or mislead; a link to a store may be read.
        try RegularFile.require(path, followingLinks: true)
        switch EventStoreSignature.classify(path) {
        case .foreign(let reason): throw StoreError.notAStore(path: path, reason: reason)
        case .new: throw StoreError.cannotOpen(path: path, reason: "the store file is empty", errno: nil)
        case .unreadable(let code):
            throw StoreError.cannotOpen(path: path, reason: "cannot read the store file: \(FileProtection.describe(code))", errno: code)
        case .own: break
        }
        do {
            let database = try SQLiteDatabase(path: SQLiteDatabase.readOnlyURI(path), flags: [.readOnly, .noMutex, .uri])
            state.database = database
            guard try database.scalarInt("PRAGMA user_version") == EventStoreSchema.version else {
                let version = try database.scalarInt("PRAGMA user_version") ?? 0
                database.close()
                state.database = nil
                throw StoreError.cannotOpen(
                    path: path, reason: "not an event store of version \(EventStoreSchema.version) (found \(version))", errno: nil)
            }
            state.counters = try readCounters(database)
        } catch let error as SQLiteError {
            state.database?.close()
            state.database = nil
            throw StoreError.from(error, path: path)
        }
    }

    /// The error every write to a store opened for reading throws.
    var readOnlyError: StoreError {
        .readOnly(path: path, cause: SQLiteError(extendedCode: SQLiteError.readOnly, message: "store opened for reading only").description)
    }

    /// Opens the file, sets WAL (checked) and the schema, reads the counters and releases in-flight rows.
    func openFile(_ state: inout State) throws {
        let isNew = EventStoreSignature.classify(path) == .new
        if isNew {
            try createAtomically(&state)
        } else if let problem = try FileProtection.createFile(atPath: path) {
            state.protectionProblems.append(problem)
        }
        let database = try SQLiteDatabase(path: path)
        state.database = database
        // 16 KiB pages, for a new file only (an existing one keeps its size): a row costs SQLite
        // about a fifth less to insert than with the default 4 KiB, as splits and page headers
        // come four times less often. (A delivery round's small transactions write larger log
        // frames; measured, that costs delivery less than half what ingest gains.) Set before
        // the log, which fixes the size.
        try database.execute("PRAGMA page_size = \(EventStoreSchema.pageSize)")
        try database.enableWriteAheadLog()
        try database.execute("PRAGMA temp_store = MEMORY")
        // A 1 MiB page cache (SQLite's default is 2 MiB): inserts append to the right edge of the
        // tree and claims read forward, so few pages are read twice; memory stays small.
        try database.execute("PRAGMA cache_size = -1024")
        // Some builds (Debian's) default to full secure delete, which writes every freed page to
        // the log: deleted rows are overwritten when it costs no extra I/O. Deleting for privacy
        // (purge, opt-out, denied consent) overwrites everything (`overwritingDeleted`).
        try database.execute("PRAGMA secure_delete = FAST")
        if try database.scalarInt("PRAGMA user_version") != EventStoreSchema.version {
            try database.transaction {
                try database.execute(EventStoreSchema.create)
                for (table, column) in EventStoreSchema.addedColumns
                where try database.scalarInt(EventStoreSchema.hasColumn(table, column)) == 0 {
                    try database.execute(EventStoreSchema.addColumn(table, column))
                }
                try database.execute(EventStoreSchema.setVersion)
            }
        }
        try database.execute(EventStoreSchema.createHeldIndex)
        if try database.scalarInt("PRAGMA application_id") != Int64(EventStoreSignature.applicationID) {
            try database.execute("PRAGMA application_id = \(EventStoreSignature.applicationID)")
        }
        // A new file has no write-ahead log yet: made now, by one write, not by the first insert.
        if isNew { try database.execute(EventStoreSchema.setVersion) }
        state.counters = try readCounters(database)
        state.idsAreUnique = try database.scalarInt(EventStoreSchema.hasUniqueIndex) ?? 0 > 0
        state.contextCache = [:]
        state.pendingFloor = 0
        state.inFlight = [:]
        state.recentIDs.removeAll(keepingCapacity: true)
        state.olderIDs = []
        // Made by SQLite (with the open flag's class), or left by an earlier run: set explicitly.
        for suffix in ["-wal", "-shm"] {
            FileProtection.restrict(path + suffix)
            if FileManager.default.fileExists(atPath: path + suffix), let problem = FileProtection.protect(path + suffix) {
                state.protectionProblems.append(problem)
            }
        }
        try releaseAllInFlightLocked(database, &state)
        state.openedFiles = (FileIdentity(path: path), FileIdentity(path: path + "-wal"))
    }

    func readCounters(_ database: SQLiteDatabase) throws -> StoreCounts {
        let statement = try database.cached(EventStoreSchema.readCounters)
        guard try statement.step() else { return StoreCounts() }
        let counts = StoreCounts(pending: statement.int(0), inFlight: statement.int(1), rejected: statement.int(2),
                                 bytes: statement.int(3), evicted: statement.int(4), held: statement.int(5))
        statement.reset()
        return counts
    }

    func writeCounters(_ counts: StoreCounts, _ database: SQLiteDatabase) throws {
        let statement = try database.cached(EventStoreSchema.writeCounters)
        try statement.bind(counts.pending, at: 1)
        try statement.bind(counts.inFlight, at: 2)
        try statement.bind(counts.rejected, at: 3)
        try statement.bind(counts.bytes, at: 4)
        try statement.bind(counts.evicted, at: 5)
        try statement.bind(counts.held, at: 6)
        try statement.step()
    }

    /// Runs `body` with the open database and the state under the lock, taken once. SQLite errors
    /// become ``StoreError``s; on damage the file is set aside and a fresh store opened before the
    /// error is thrown.
    func withDatabase<Result>(_ body: (SQLiteDatabase, inout State) throws -> Result) throws -> Result {
        try state.withLock { state in
            if state.database == nil {
                if state.closedByUser { throw StoreError.closed(path: path) }
                try isReadOnly ? openForReadingLocked(&state) : openLocked(&state)
            }
            guard let database = state.database else { throw StoreError.closed(path: path) }
            do {
                return try body(database, &state)
            } catch let error as SQLiteError where error.isCorruption && isReadOnly {
                throw StoreError.corrupt(path: path, setAsidePath: nil, cause: error.description)
            } catch let error as SQLiteError where error.isCorruption {
                let aside = FileProtection.setAside(path)
                database.close()
                state.database = nil
                state.recovered = aside ?? state.recovered
                state.counters = StoreCounts()
                try? openLocked(&state)
                throw StoreError.corrupt(path: path, setAsidePath: aside, cause: error.description)
            } catch let error as SQLiteError {
                throw StoreError.from(error, path: path)
            }
        }
    }

    /// ``withDatabase(_:)-(SQLiteDatabase,inout State)`` for a body that needs only the database.
    func withDatabase<Result>(_ body: (SQLiteDatabase) throws -> Result) throws -> Result {
        try withDatabase { database, _ in try body(database) }
    }

    /// ``write(_:)-(SQLiteDatabase,inout StoreCounts,inout State)`` for a body that needs no other state.
    func write<Result>(_ body: (SQLiteDatabase, inout StoreCounts) throws -> Result) throws -> Result {
        try write { database, counts, _ in try body(database, &counts) }
    }

    /// Runs `body` in a transaction on a copy of the counters, which are written in the same
    /// transaction and kept only when it commits.
    func write<Result>(_ body: (SQLiteDatabase, inout StoreCounts, inout State) throws -> Result) throws -> Result {
        guard !isReadOnly else { throw readOnlyError }
        return try withDatabase { database, state in
            var next = state.counters
            let result = try database.transaction {
                let result = try body(database, &next, &state)
                try writeCounters(next, database)
                return result
            }
            state.counters = next
            return result
        }
    }
}
