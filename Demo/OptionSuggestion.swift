/// The "did you mean" for a mistyped option: the known option nearest to what was typed, by
/// Damerau–Levenshtein distance (insertions, deletions, substitutions and swaps of two adjacent
/// characters, each costing 1), when it is at most ``maxDistance`` away.
///
/// ``CommandLineOptions`` asks it for every unknown `--option`, so every command suggests the
/// same way.
enum OptionSuggestion {
    /// The farthest a known option may be from the typed one to be suggested.
    static let maxDistance = 2

    /// The known name nearest to `typed` within ``maxDistance`` (the first listed among equally
    /// near ones), or nil when none is that near.
    static func nearest(to typed: String, among known: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for name in known {
            let distance = self.distance(typed, name)
            guard distance <= maxDistance, distance < (best?.distance ?? .max) else { continue }
            best = (name, distance)
        }
        return best?.name
    }

    /// The edit distance between `a` and `b` with adjacent transpositions (the optimal string
    /// alignment variant: no substring is edited twice), by character.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the dynamic-programming table: two back, one back, and this one.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
