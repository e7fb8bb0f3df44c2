/// The shape of an ``EventJournal``: segment size and the byte budget of the segments that wait
/// for the store.
struct JournalConfiguration: Sendable, Equatable {
    /// Bytes per segment file (rounded up to a multiple of 4 KiB). A record must fit in one
    /// segment. When the disk cannot hold a segment this large, smaller ones are tried (down to
    /// ``smallestSegmentBytes``), so a nearly full disk still takes events.
    var segmentBytes: Int
    /// The most bytes of segment files on disk at once. When the segments holding events not yet
    /// in the store reach it, appends fail with ``JournalError/full(bytes:)``. Bounds disk and
    /// memory use, in bytes rather than in events.
    var maxBytes: Int

    /// The smallest segment tried when the disk is short of space.
    static let smallestSegmentBytes = 64 << 10

    /// Creates a configuration bounded by bytes.
    /// - Parameters:
    ///   - segmentBytes: bytes per segment. Defaults to 4 MiB.
    ///   - maxBytes: the journal's byte budget. Defaults to 256 MiB; at least two segments.
    init(segmentBytes: Int = 4 << 20, maxBytes: Int = 256 << 20) {
        let page = 4_096
        self.segmentBytes = max(2 * page, (segmentBytes + page - 1) / page * page)
        self.maxBytes = max(2 * self.segmentBytes, maxBytes)
    }

    /// Creates a configuration bounded by a number of full-size segments.
    /// - Parameters:
    ///   - segmentBytes: bytes per segment.
    ///   - maxSegments: the most full-size segments (at least 2).
    init(segmentBytes: Int, maxSegments: Int) {
        self.init(segmentBytes: segmentBytes, maxBytes: 0)
        maxBytes = self.segmentBytes * max(2, maxSegments)
    }
}
