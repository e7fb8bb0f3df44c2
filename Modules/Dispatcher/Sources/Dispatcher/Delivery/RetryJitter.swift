/// How randomness spreads retry delays so that many clients do not retry in step.
public enum RetryJitter: Sendable, Equatable {
    /// The exact backoff delay.
    case none
    /// Uniform in `0 ..< delay` ("full jitter").
    case full
    /// Uniform in `delay/2 ..< delay` ("equal jitter").
    case equal
}

extension RetryJitter {
    /// The jitter a configuration names: `"none"`, `"full"` or `"equal"`.
    init?(name: String) {
        switch name {
        case "none": self = .none
        case "full": self = .full
        case "equal": self = .equal
        default: return nil
        }
    }

    /// The name a configuration uses: `"none"`, `"full"` or `"equal"`.
    public var name: String {
        switch self {
        case .none: "none"
        case .full: "full"
        case .equal: "equal"
        }
    }
}
