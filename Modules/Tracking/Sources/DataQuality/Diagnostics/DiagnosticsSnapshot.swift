/// A copy of ``Diagnostics`` at one moment.
public struct DiagnosticsSnapshot: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Counter values; a counter never moved is absent (read it with ``count(_:)``).
    public var counters: [DiagnosticsCounter: Int]
    /// How many issues of each kind were recorded in total.
    public var issueTotals: [DiagnosticIssue.Kind: Int]
    /// The latest issues, oldest first.
    public var recentIssues: [DiagnosticIssue]

    /// Creates a snapshot.
    public init(counters: [DiagnosticsCounter: Int] = [:], issueTotals: [DiagnosticIssue.Kind: Int] = [:], recentIssues: [DiagnosticIssue] = []) {
        self.counters = counters
        self.issueTotals = issueTotals
        self.recentIssues = recentIssues
    }

    /// The value of `counter` (zero when it never moved).
    public func count(_ counter: DiagnosticsCounter) -> Int { counters[counter] ?? 0 }

    /// How many issues of `kind` were recorded.
    public func issues(_ kind: DiagnosticIssue.Kind) -> Int { issueTotals[kind] ?? 0 }

    /// `sent=3 persisted=3 … | issues: validation=1`.
    public var description: String {
        let counts = DiagnosticsCounter.allCases.map { "\($0.rawValue)=\(count($0))" }.joined(separator: " ")
        let kinds = DiagnosticIssue.Kind.allCases.filter { issues($0) > 0 }.map { "\($0.rawValue)=\(issues($0))" }
        return counts + (kinds.isEmpty ? "" : " | issues: " + kinds.joined(separator: " "))
    }
}
