import Foundation

/// `demo bench [--quick] [--json]`.
enum BenchCommand {
    static func run(_ arguments: [String]) async throws -> Int32 {
        throw UsageError("bench is not available yet")
    }
}
