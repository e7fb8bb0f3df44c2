@testable import Dispatcher
import Foundation
import Testing
import TestSupport

@Suite("Retry policy decisions (fixed time, fixed randomness)", .runsAlone)
struct RetryPolicyTests {
    let now = Date(timeIntervalSince1970: 1_795_255_200)
    let created = Date(timeIntervalSince1970: 1_795_255_100)

    func outcome(_ status: Int, headers: [String: String] = [:]) -> DeliveryOutcome {
        DeliveryOutcome(response: HTTPResponse(statusCode: status, headers: headers))
    }

    @Test("exponential backoff doubles and is capped")
    func backoffSequence() {
        let policy = RetryPolicy(baseDelay: 1, multiplier: 2, maxDelay: 30, jitter: .none)
        #expect((1...7).map { policy.backoff(attempt: $0, random: 0.3) } == [1, 2, 4, 8, 16, 30, 30])
        #expect(policy.backoff(attempt: 10_000, random: 0) == 30)
    }

    @Test("full jitter spans 0 ..< delay, equal jitter delay/2 ..< delay")
    func jitterBounds() {
        let full = RetryPolicy(baseDelay: 1, maxDelay: 30, jitter: .full)
        #expect(full.backoff(attempt: 3, random: 0) == 0)
        #expect(full.backoff(attempt: 3, random: 0.5) == 2)
        #expect(full.backoff(attempt: 3, random: 0.999) < 4)
        let equal = RetryPolicy(baseDelay: 1, maxDelay: 30, jitter: .equal)
        #expect(equal.backoff(attempt: 3, random: 0) == 2)
        #expect(equal.backoff(attempt: 3, random: 0.5) == 3)
        #expect(equal.backoff(attempt: 3, random: 0.999) < 4)
        #expect(equal.backoff(attempt: 20, random: 0.25) == 15 + 3.75)
        for step in 0..<100 {
            let random = Double(step) / 100
            #expect((0..<30).contains(full.backoff(attempt: 9, random: random)))
            #expect((15..<30).contains(equal.backoff(attempt: 9, random: random)))
        }
    }

    @Test("network errors, timeouts, 408, 429 and 5xx retry with the backoff", arguments: [408, 429, 500, 502, 503, 504, 599])
    func retryableStatuses(_ status: Int) {
        let policy = RetryPolicy(baseDelay: 2, maxDelay: 60, jitter: .full)
        let decision = policy.decide(outcome(status), attempt: 2, createdAt: created, batchCount: 5, now: now, random: 0.5)
        #expect(decision == .retry(at: now.addingTimeInterval(2), reason: "HTTP \(status)"))
    }

    @Test("transport failures retry")
    func transportFailures() {
        let policy = RetryPolicy(baseDelay: 1, jitter: .none)
        for error in [TransportError.timedOut(seconds: 2), .network("reset"), .cancelled] {
            let decision = policy.decide(DeliveryOutcome(error: error), attempt: 1, createdAt: created, batchCount: 1,
                                         now: now, random: 0.7)
            #expect(decision == .retry(at: now.addingTimeInterval(1), reason: error.description))
        }
    }

    @Test("Retry-After in seconds replaces the backoff, capped")
    func retryAfterSeconds() {
        let policy = RetryPolicy(baseDelay: 1, jitter: .none, maxRetryAfter: 600)
        let decision = policy.decide(outcome(429, headers: ["Retry-After": "7"]), attempt: 1, createdAt: created,
                                     batchCount: 1, now: now, random: 0.5)
        #expect(decision == .retry(at: now.addingTimeInterval(7), reason: "HTTP 429"))
        let capped = policy.decide(outcome(503, headers: ["retry-after": "86400"]), attempt: 1, createdAt: created,
                                   batchCount: 1, now: now, random: 0.5)
        #expect(capped == .retry(at: now.addingTimeInterval(600), reason: "HTTP 503"))
    }

    @Test("Retry-After as an HTTP date")
    func retryAfterDate() {
        #expect(RetryAfter(headerValue: "Wed, 21 Oct 2015 07:28:00 GMT") == .date(Date(timeIntervalSince1970: 1_445_412_480)))
        #expect(RetryAfter(headerValue: "soon") == nil)
        #expect(RetryAfter(headerValue: "-3") == nil)
        let policy = RetryPolicy(jitter: .none)
        // now = 2026-11-21T10:00:00Z (a Saturday); the server asks for 90 s later.
        let decision = policy.decide(outcome(429, headers: ["Retry-After": "Sat, 21 Nov 2026 10:01:30 GMT"]), attempt: 1,
                                     createdAt: created, batchCount: 1, now: now, random: 0.5)
        #expect(decision == .retry(at: now.addingTimeInterval(90), reason: "HTTP 429"))
        // A date in the past means "now".
        #expect(RetryAfter.date(now.addingTimeInterval(-5)).delay(from: now) == 0)
    }

    @Test("413 splits a batch; a single event that is too large is rejected")
    func tooLarge() {
        let policy = RetryPolicy()
        #expect(policy.decide(outcome(413), attempt: 1, createdAt: created, batchCount: 2, now: now, random: 0)
            == .split(reason: "HTTP 413"))
        #expect(policy.decide(outcome(413), attempt: 1, createdAt: created, batchCount: 1, now: now, random: 0)
            == .reject(reason: "too large on its own: HTTP 413"))
    }

    @Test("400, 422 and other 4xx reject; 2xx acknowledges", arguments: [400, 409, 410, 422])
    func rejections(_ status: Int) {
        let policy = RetryPolicy()
        #expect(policy.decide(outcome(status), attempt: 1, createdAt: created, batchCount: 3, now: now, random: 0)
            == .reject(reason: "HTTP \(status)"))
        #expect(policy.decide(outcome(204), attempt: 1, createdAt: created, batchCount: 3, now: now, random: 0) == .acknowledge)
    }

    @Test("401, 403 and 404 pause, naming the cause without the body", arguments: [401, 403, 404])
    func refusedEndpoint(_ status: Int) {
        let outcome = DeliveryOutcome(response: HTTPResponse(statusCode: status, body: Data("key abc is invalid".utf8)))
        guard case .endpointRefused(let reason) = outcome else {
            Issue.record("HTTP \(status) gave \(outcome)")
            return
        }
        #expect(reason.hasPrefix("HTTP \(status): ") && !reason.contains("abc"))
        #expect(RetryPolicy(maxAttempts: 1).decide(outcome, attempt: 1, createdAt: created, batchCount: 3, now: now, random: 0)
            == .pause(reason: reason))
    }

        @Test("maxWait is the longest wait the policy can ask for, never above a day; no decision waits longer")
    func maxWait() {
        #expect(RetryPolicy().maxWait == 300)
        #expect(RetryPolicy(maxDelay: 7200, maxRetryAfter: 60).maxWait == 7200)
        let unbounded = RetryPolicy(maxDelay: .infinity, jitter: .none, maxRetryAfter: .infinity)
        #expect(unbounded.maxWait == RetryPolicy.waitCeiling)
        #expect(unbounded.decide(outcome(503, headers: ["Retry-After": "999999999"]), attempt: 1, createdAt: created,
                                 batchCount: 1, now: now, random: 0) == .retry(at: now.addingTimeInterval(86_400), reason: "HTTP 503"))
        let steep = RetryPolicy(multiplier: 1_000, maxDelay: .infinity, jitter: .none, maxRetryAfter: 60)
        #expect(steep.decide(outcome(503), attempt: 9, createdAt: created, batchCount: 1, now: now, random: 0)
            == .retry(at: now.addingTimeInterval(86_400), reason: "HTTP 503"))
    }

    @Test("the reason carries the response body")
    func reasonWithBody() {
        let result = DeliveryOutcome(response: HTTPResponse(statusCode: 422, body: Data("bad field".utf8)))
        #expect(result == .rejected(reason: "HTTP 422: bad field"))
    }

    @Test("past maxAttempts or maxAge a retryable failure rejects, saying why")
    func limits() {
        let policy = RetryPolicy(maxAttempts: 5, maxAge: 3600)
        #expect(policy.decide(outcome(500), attempt: 4, createdAt: created, batchCount: 1, now: now, random: 0)
            == .retry(at: now, reason: "HTTP 500"))
        #expect(policy.decide(outcome(500), attempt: 5, createdAt: created, batchCount: 1, now: now, random: 0)
            == .reject(reason: "gave up after 5 attempts: HTTP 500"))
        let old = now.addingTimeInterval(-3600)
        #expect(policy.decide(outcome(503), attempt: 1, createdAt: old, batchCount: 1, now: now, random: 0)
            == .reject(reason: "gave up: older than 3600 s: HTTP 503"))
        #expect(policy.decide(outcome(503), attempt: 1, createdAt: old.addingTimeInterval(1), batchCount: 1, now: now,
                              random: 0) == .retry(at: now, reason: "HTTP 503"))
    }
}
