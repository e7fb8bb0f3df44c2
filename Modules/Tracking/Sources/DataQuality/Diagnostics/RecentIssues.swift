/// The latest issues, at most `limit`: single issues and batches (``DiagnosticIssueBatch``),
/// oldest first. Recording drops the oldest entries, or the oldest issues of a batch, beyond
/// the limit, without shifting the others on every record.
struct RecentIssues: Sendable {
    /// One recorded entry: an issue, the issues of a batch from `first` on, or nothing (dropped).
    private enum Entry {
        case issue(DiagnosticIssue)
        case batch(any DiagnosticIssueBatch, first: Int)
        case dropped

        var count: Int {
            switch self {
            case .issue: 1
            case .batch(let batch, let first): batch.count - first
            case .dropped: 0
            }
        }
    }

    private let limit: Int
    private var entries: [Entry] = []
    /// Entries before this index are dropped (compacted away from time to time).
    private var head = 0
    /// How many issues the entries from `head` on hold.
    private var total = 0

    /// An empty list keeping at most `limit` issues (at least one).
    init(limit: Int) { self.limit = max(1, limit) }

    /// Adds `issue`, dropping the oldest beyond the limit.
    mutating func append(_ issue: DiagnosticIssue) { append(.issue(issue)) }

    /// Adds the issues of `batch`, dropping the oldest beyond the limit.
    mutating func append(_ batch: any DiagnosticIssueBatch) {
        guard batch.count > 0 else { return }
        append(.batch(batch, first: 0))
    }

    private mutating func append(_ entry: Entry) {
        entries.append(entry)
        total += entry.count
        while total > limit {
            let excess = total - limit
            let oldestCount = entries[head].count
            if oldestCount <= excess {
                entries[head] = .dropped
                head += 1
                total -= oldestCount
            } else if case .batch(let batch, let first) = entries[head] {
                entries[head] = .batch(batch, first: first + excess)
                total -= excess
            }
        }
        if head > limit {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// The issues, oldest first.
    var inOrder: [DiagnosticIssue] {
        var issues: [DiagnosticIssue] = []
        issues.reserveCapacity(total)
        for entry in entries[head...] {
            switch entry {
            case .issue(let issue): issues.append(issue)
            case .batch(let batch, let first): for index in first..<batch.count { issues.append(batch.issue(at: index)) }
            case .dropped: break
            }
        }
        return issues
    }

    /// Forgets every issue.
    mutating func removeAll() {
        entries.removeAll()
        head = 0
        total = 0
    }
}
