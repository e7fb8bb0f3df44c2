import Foundation

/// `demo reconcile A B`: compares two NDJSON event streams.
enum ReconcileCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        throw UsageError("reconcile is not available yet")
    }
}
