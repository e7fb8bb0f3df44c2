import Tracking

/// A failed expectation: says what was expected and what came instead, by position.
public struct EventExpectationFailure: Error, CustomStringConvertible {
    /// The readable diff.
    public let description: String
}
