import Tracking

/// One expected event, compared by category, name, action and (when given) userData.
public struct ExpectedEvent: Sendable, Equatable, CustomStringConvertible {
    /// The expected category.
    public var category: String
    /// The expected name.
    public var name: String
    /// The expected action.
    public var action: String
    /// The expected data, or `nil` to ignore it.
    public var userData: UserData?

    /// Creates an expectation from a feature's own names.
    public init<T: EventType>(_ feature: T.Type, _ name: T.Name, _ action: T.Action, _ userData: UserData? = nil) {
        self.init(category: T.category, name: name.rawValue, action: action.rawValue, userData: userData)
    }

    /// Creates an expectation from strings.
    public init(category: String, name: String, action: String, userData: UserData? = nil) {
        self.category = category
        self.name = name
        self.action = action
        self.userData = userData
    }

    /// Whether `event` is what this expects.
    public func matches(_ event: TrackedEvent) -> Bool {
        event.category == category && event.name == name && event.action == action
            && (userData == nil || userData == event.userData)
    }

    /// `Category/name/action {userData}`, the same shape as ``TrackedEvent``'s description.
    public var description: String {
        var line = "\(category)/\(name)/\(action)"
        if let userData, !userData.isEmpty { line += " " + JSONText.encode(.object(userData)) }
        return line
    }
}

/// A failed expectation: says what was expected and what came instead, by position.
public struct EventExpectationFailure: Error, CustomStringConvertible {
    /// The readable diff.
    public let description: String
}

extension RecordingPlugin {
    /// Checks that exactly these events were recorded, in order.
    /// - Throws: ``EventExpectationFailure`` with a by-position diff.
    public func expect(_ expected: [ExpectedEvent], strict: Bool = true) throws {
        try EventDiff.check(expected: expected, got: events, strict: strict)
    }

    /// Checks one feature's events in one line: `try recorder.expect(Cart.self, [(.add, .select)])`.
    ///
    /// Events of other features are ignored; userData is not compared.
    public func expect<T: EventType>(_ feature: T.Type, _ expected: [(T.Name, T.Action)], strict: Bool = true) throws {
        try EventDiff.check(
            expected: expected.map { ExpectedEvent(feature, $0.0, $0.1) },
            got: events(of: feature),
            strict: strict
        )
    }

    /// Checks that nothing was recorded.
    public func expectNothing() throws {
        try EventDiff.check(expected: [], got: events, strict: false)
    }
}

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
