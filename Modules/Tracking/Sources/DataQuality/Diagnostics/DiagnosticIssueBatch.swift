/// Several issues of one kind about one event, recorded together and kept as one entry: each
/// ``DiagnosticIssue`` is made only when read (a snapshot, an observer).
protocol DiagnosticIssueBatch: Sendable {
    /// The issues' kind.
    var kind: DiagnosticIssue.Kind { get }
    /// How many issues.
    var count: Int { get }
    /// The issue at `index`, in `0..<count`.
    func issue(at index: Int) -> DiagnosticIssue
}
