/// The bench could not complete a phase.
public struct BenchError: Error, CustomStringConvertible {
    /// What did not complete.
    public let description: String
    init(_ description: String) { self.description = description }
}
