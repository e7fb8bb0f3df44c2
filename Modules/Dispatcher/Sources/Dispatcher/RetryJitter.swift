/// How randomness spreads retry delays so that many clients do not retry in step.
public enum RetryJitter: Sendable, Equatable {
    /// The exact backoff delay.
    case none
    /// Uniform in `0 ..< delay` ("full jitter").
    case full
    /// Uniform in `delay/2 ..< delay` ("equal jitter").
    case equal
}
