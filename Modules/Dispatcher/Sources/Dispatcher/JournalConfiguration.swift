/// The shape of an ``EventJournal``: segment size and how many segments may wait for the store.
public struct JournalConfiguration: Sendable, Equatable {
    /// Bytes per segment file (rounded up to a multiple of 4 KiB). A record must fit in one segment.
    public var segmentBytes: Int
    /// The most segment files at once; when all are full of events not yet in the store,
    /// appends fail with ``JournalError/full(segments:)``. Bounds memory and disk use.
    public var maxSegments: Int

    /// Creates a configuration.
    /// - Parameters:
    ///   - segmentBytes: bytes per segment. Defaults to 4 MiB.
    ///   - maxSegments: the most segments. Defaults to 16 (64 MiB with the default size).
    public init(segmentBytes: Int = 4 << 20, maxSegments: Int = 16) {
        let page = 4_096
        self.segmentBytes = max(2 * page, (segmentBytes + page - 1) / page * page)
        self.maxSegments = max(2, maxSegments)
    }
}
