import Foundation

/// A token bucket: allows bursts up to `capacity`, then `refillPerSecond` on average.
///
/// A pure value with time passed in, so a test can step the clock exactly.
struct TokenBucket: Sendable, Equatable, Codable {
    /// The most tokens the bucket holds (the largest burst).
    public var capacity: Double
    /// Tokens added per second.
    public var refillPerSecond: Double
    /// Tokens available after the last refill.
    public private(set) var tokens: Double
    /// When tokens were last added; `nil` before first use.
    public private(set) var lastRefill: Date?

    /// Creates a full bucket.
    /// - Parameters:
    ///   - capacity: the largest burst; at least 1.
    ///   - refillPerSecond: the sustained rate; zero means never refill.
    public init(capacity: Double, refillPerSecond: Double) {
        self.capacity = max(1, capacity)
        self.refillPerSecond = max(0, refillPerSecond)
        self.tokens = self.capacity
        self.lastRefill = nil
    }

    /// Takes one token at `now` if there is one.
    /// - Returns: `true` when the action may happen.
    public mutating func take(at now: Date) -> Bool {
        refill(at: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    private mutating func refill(at now: Date) {
        if let lastRefill {
            let elapsed = max(0, now.timeIntervalSince(lastRefill))
            tokens = min(capacity, tokens + elapsed * refillPerSecond)
        }
        // Time never goes backwards for the bucket: a clock step back neither adds nor removes tokens.
        if let lastRefill, now <= lastRefill { return }
        lastRefill = now
    }
}
