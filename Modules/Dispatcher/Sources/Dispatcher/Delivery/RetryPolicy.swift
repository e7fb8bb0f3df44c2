import Foundation
import Tracking

/// Decides, purely, what follows a delivery attempt: acknowledge, retry later, split, or reject.
/// Time and randomness are parameters, so every decision is exact in tests.
///
/// - Retryable (network error, timeout, 408, 429, 5xx, a redirect): wait
///   `min(maxDelay, baseDelay * multiplier^(attempt-1))`, spread by ``jitter``, or the server's
///   `Retry-After` (capped at ``maxRetryAfter``); never longer than ``maxWait``, whatever the clock.
/// - 413 splits a batch (a single event too large is rejected); 401, 403 and 404 pause, no
///   attempt counted; every other 4xx rejects.
/// - Past ``maxAttempts``, or older than ``maxAge`` (less what steps of the wall clock may
///   account for, so a clock set ahead cannot condemn an event), an event is rejected.
public struct RetryPolicy: Sendable, Equatable, Codable {
    /// The delay before the first retry, in seconds.
    public var baseDelay: TimeInterval
    /// The factor the delay grows by with each attempt.
    public var multiplier: Double
    /// The largest delay, in seconds, before jitter.
    public var maxDelay: TimeInterval
    /// How the delay is randomised.
    public var jitter: RetryJitter
    /// The number of attempts after which a failing event is rejected.
    public var maxAttempts: Int
    /// The age after which a failing event is rejected, in seconds since it was created.
    public var maxAge: TimeInterval
    /// The longest `Retry-After` honoured, in seconds (five minutes by default, the same as
    /// ``maxDelay``, so that the default ``maxWait`` is the maximum backoff); longer ones, and
    /// HTTP dates further ahead, are cut to this, so a server cannot park the queue for days.
    public var maxRetryAfter: TimeInterval

    /// The ceiling of every retry wait, one day, whatever ``maxDelay`` and ``maxRetryAfter`` say.
    public static let waitCeiling: TimeInterval = 86_400

    /// The maximum backoff: the longest any retry waits, in seconds. It is the larger of
    /// ``maxDelay`` and ``maxRetryAfter`` (never negative, never above ``waitCeiling``).
    ///
    /// A next-attempt time further ahead than now + `maxWait` cannot come from this policy: it
    /// was scheduled while the clock was ahead. Delivery treats it as now + `maxWait`.
    public var maxWait: TimeInterval {
        let longest = max(maxDelay, maxRetryAfter)
        return longest.isNaN ? Self.waitCeiling : min(max(0, longest), Self.waitCeiling)
    }

    /// Creates a policy. The defaults: 1 s doubling to at most 5 minutes, full jitter,
    /// 10 attempts, 7 days, `Retry-After` up to 5 minutes.
    public init(
        baseDelay: TimeInterval = 1, multiplier: Double = 2, maxDelay: TimeInterval = 300,
        jitter: RetryJitter = .full, maxAttempts: Int = 10, maxAge: TimeInterval = 7 * 86_400,
        maxRetryAfter: TimeInterval = 300
    ) {
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxAttempts = maxAttempts
        self.maxAge = maxAge
        self.maxRetryAfter = maxRetryAfter
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case baseDelay, multiplier, maxDelay, jitter, maxAttempts, maxAge, maxRetryAfter
    }

    /// Decodes a policy from JSON: absent keys keep their defaults, unknown keys are errors.
    /// `jitter` is `"full"`, `"equal"` or `"none"`.
    public init(from decoder: any Decoder) throws {
        try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        baseDelay = try container.decodeIfPresent(Double.self, forKey: .baseDelay) ?? baseDelay
        multiplier = try container.decodeIfPresent(Double.self, forKey: .multiplier) ?? multiplier
        maxDelay = try container.decodeIfPresent(Double.self, forKey: .maxDelay) ?? maxDelay
        maxAttempts = try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? maxAttempts
        maxAge = try container.decodeIfPresent(Double.self, forKey: .maxAge) ?? maxAge
        maxRetryAfter = try container.decodeIfPresent(Double.self, forKey: .maxRetryAfter) ?? maxRetryAfter
        if let name = try container.decodeIfPresent(String.self, forKey: .jitter) {
            guard let jitter = RetryJitter(name: name) else {
                throw DecodingError.dataCorruptedError(forKey: .jitter, in: container, debugDescription: "must be \"full\", \"equal\" or \"none\", got '\(name)'")
            }
            self.jitter = jitter
        }
    }

    /// Encodes the policy with the keys ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(baseDelay, forKey: .baseDelay)
        try container.encode(multiplier, forKey: .multiplier)
        try container.encode(maxDelay, forKey: .maxDelay)
        try container.encode(jitter.name, forKey: .jitter)
        try container.encode(maxAttempts, forKey: .maxAttempts)
        try container.encode(maxAge, forKey: .maxAge)
        try container.encode(maxRetryAfter, forKey: .maxRetryAfter)
    }

    /// Throws a `ConfigurationError` naming the first impossible field.
    public func validate() throws {
        // The reason is only written out for a field that fails.
        func check(_ ok: Bool, _ field: String, _ reason: @autoclosure () -> String) throws {
            if !ok { throw ConfigurationError(field: field, reason: reason()) }
        }
        try check(baseDelay.isFinite && baseDelay >= 0, "baseDelay", "must be a non-negative number of seconds, got \(baseDelay)")
        try check(multiplier.isFinite && multiplier >= 1, "multiplier", "must be at least 1, got \(multiplier)")
        try check(maxDelay.isFinite && maxDelay >= 0, "maxDelay", "must be a non-negative number of seconds, got \(maxDelay)")
        try check(maxAttempts >= 1, "maxAttempts", "must be at least 1, got \(maxAttempts)")
        try check(maxAge.isFinite && maxAge > 0, "maxAge", "must be a positive number of seconds, got \(maxAge)")
        try check(maxRetryAfter.isFinite && maxRetryAfter >= 0, "maxRetryAfter", "must be a non-negative number of seconds, got \(maxRetryAfter)")
    }

    /// The backoff delay after failed attempt number `attempt` (1 for the first).
    /// - Parameters:
    ///   - attempt: the number of the attempt that failed, 1 for the first.
    ///   - random: a value in `0 ..< 1` that drives the jitter.
    public func backoff(attempt: Int, random: Double) -> TimeInterval {
        let exponent = Double(max(0, attempt - 1))
        let raw = baseDelay * pow(multiplier, exponent)
        let capped = raw.isFinite ? min(maxDelay, raw) : maxDelay
        let unit = min(max(random, 0), 1)
        switch jitter {
        case .none: return capped
        case .full: return capped * unit
        case .equal: return capped / 2 + capped / 2 * unit
        }
    }

    /// Decides what follows an attempt for one event.
    /// - Parameters:
    ///   - outcome: what the destination reported.
    ///   - attempt: the number of this attempt for the event (1 for the first).
    ///   - createdAt: when the event was first persisted.
    ///   - batchCount: how many events were sent together (for 413).
    ///   - now: the current time.
    ///   - random: a value in `0 ..< 1` for the jitter.
    ///   - clockStep: the seconds of the age that steps of the wall clock may account for
    ///     (``WallClockWitness/steppedSeconds(at:)``); they do not count towards ``maxAge``.
    func decide(
        _ outcome: DeliveryOutcome, attempt: Int, createdAt: Date, batchCount: Int, now: Date, random: Double,
        clockStep: TimeInterval = 0
    ) -> RetryDecision {
        switch outcome {
        case .delivered:
            return .acknowledge
        case .rejected(let reason):
            return .reject(reason: reason)
        case .endpointRefused(let reason):
            return .pause(reason: reason)
        case .tooLarge(let reason):
            return batchCount > 1 ? .split(reason: reason) : .reject(reason: "too large on its own: " + reason)
        case .retry(let reason, let retryAfter):
            if attempt >= maxAttempts {
                return .reject(reason: "gave up after \(attempt) attempts: \(reason)")
            }
            let age = now.timeIntervalSince(createdAt) - max(0, clockStep)
            if age >= maxAge {
                return .reject(reason: "gave up: older than \(Int(maxAge)) s: \(reason)")
            }
            if let retryAfter { return .retry(at: honouring(retryAfter, now: now), reason: reason) }
            let delay = backoff(attempt: attempt, random: random)
            return .retry(at: now.addingTimeInterval(delay.isNaN ? maxWait : min(max(0, delay), maxWait)), reason: reason)
        }
    }

    /// The moment a server's `Retry-After`, received at `now`, lets the next request go: cut to
    /// ``maxRetryAfter`` and to ``maxWait``.
    func honouring(_ retryAfter: RetryAfter, now: Date) -> Date {
        let delay = min(retryAfter.delay(from: now), maxRetryAfter)
        return now.addingTimeInterval(delay.isNaN ? maxWait : min(max(0, delay), maxWait))
    }
}
