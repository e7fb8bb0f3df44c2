/// The medians the bench reports: of one run's samples, and of paired samples' ratios.
enum Median {
    /// The middle sample (the upper one of an even count), or `empty` when there is none.
    static func of<Sample: Comparable>(_ samples: [Sample], empty: Sample) -> Sample {
        samples.isEmpty ? empty : samples.sorted()[samples.count / 2]
    }

    /// The median of `samples[i] / references[i]`, each sample over the one timed beside it
    /// (pairs with a zero reference are left out; 0 when none is left). A ratio of two medians
    /// would be thrown off when the host changes speed midway: each median could fall in
    /// another mode.
    static func ratio(of samples: [UInt64], over references: [UInt64]) -> Double {
        of(zip(samples, references).compactMap { $1 > 0 ? Double($0) / Double($1) : nil }, empty: 0)
    }
}
