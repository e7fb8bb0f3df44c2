import Testing

/// A trait for the suites that must not share the machine with one another: the ones that
/// measure time or CPU, saturate Swift's cooperative pool, start many threads or processes, or
/// wait on a real collector with a deadline. Each test of such a suite waits until no other test
/// marked `.runsAlone` is running, in any suite of the process, so they run one at a time, while
/// the rest of the suite (the quick unit tests) still runs in parallel with them.
///
/// `.serialized` alone is not enough: it only orders the tests inside one suite.
///
/// ```swift
/// @Suite("Reliability: FaultyCollector", .serialized, .runsAlone)
/// ```
public struct RunsAlone: SuiteTrait, TestTrait, TestScoping {
    /// Applies to every test of the suite, and of its nested suites.
    public var isRecursive: Bool { true }

    /// Scopes each test case, never a whole suite (a suite waiting for the gate while one of its
    /// tests holds it would never start).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite || testCase == nil ? nil : self
    }

    /// Runs the test once no other `.runsAlone` test is running.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await RunsAloneGate.shared.enter()
        do {
            try await function()
        } catch {
            await RunsAloneGate.shared.leave()
            throw error
        }
        await RunsAloneGate.shared.leave()
    }
}

extension Trait where Self == RunsAlone {
    /// Runs each test of the suite while no other `.runsAlone` test runs. See ``RunsAlone``.
    public static var runsAlone: Self { RunsAlone() }
}
