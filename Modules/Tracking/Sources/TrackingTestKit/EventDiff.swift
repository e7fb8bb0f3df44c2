import Tracking

/// Compares expected and recorded events and describes the difference.
public enum EventDiff {
    /// Throws a readable diff unless `got` matches `expected` position by position.
    ///
    /// With `strict`, an event flagged `invalid_pair` fails too, even when it was expected:
    /// in tests a wrong pair is a failure.
    public static func check(expected: [ExpectedEvent], got: [TrackedEvent], strict: Bool) throws {
        var lines: [String] = []
        for index in 0..<max(expected.count, got.count) {
            let want = index < expected.count ? expected[index] : nil
            let have = index < got.count ? got[index] : nil
            switch (want, have) {
            case let (want?, have?) where want.matches(have):
                if strict, let flag = have.flags.first(where: { $0.code == "invalid_pair" }) {
                    lines.append("  #\(index): \(have)  ← flagged \(flag)")
                }
            case let (want?, have?):
                lines.append("  #\(index): expected \(want)\n       got      \(have)")
            case let (want?, nil):
                lines.append("  #\(index): expected \(want)\n       got      nothing")
            case let (nil, have?):
                lines.append("  #\(index): expected nothing\n       got      \(have)")
            case (nil, nil):
                break
            }
        }
        guard !lines.isEmpty else { return }
        throw EventExpectationFailure(
            description: "Events differ (expected \(expected.count), got \(got.count)):\n" + lines.joined(separator: "\n")
        )
    }
}
