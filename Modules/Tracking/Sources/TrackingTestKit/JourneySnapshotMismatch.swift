import Foundation
import Tracking

/// A journey that differs from its recorded snapshot.
public struct JourneySnapshotMismatch: Error, CustomStringConvertible {
    /// The snapshot file.
    public let file: URL
    /// The line-by-line diff.
    public let diff: String

    /// Says where and what; how to re-record.
    public var description: String {
        "Journey differs from snapshot \(file.lastPathComponent) (set RECORD_SNAPSHOTS=1 to re-record):\n\(diff)"
    }
}
