import Tracking

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
