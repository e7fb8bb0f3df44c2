/// The latest issues, at most `limit`, in a ring: recording one overwrites the oldest instead
/// of shifting the others.
struct RecentIssues {
    private let limit: Int
    private var storage: [DiagnosticIssue] = []
    private var oldest = 0

    /// An empty ring keeping at most `limit` issues (at least one).
    init(limit: Int) { self.limit = max(1, limit) }

    /// Adds `issue`, forgetting the oldest when full.
    mutating func append(_ issue: DiagnosticIssue) {
        if storage.count < limit {
            storage.append(issue)
        } else {
            storage[oldest] = issue
            oldest = (oldest + 1) % limit
        }
    }

    /// The issues, oldest first.
    var inOrder: [DiagnosticIssue] { Array(storage[oldest...] + storage[..<oldest]) }

    /// Forgets every issue.
    mutating func removeAll() {
        storage.removeAll()
        oldest = 0
    }
}
