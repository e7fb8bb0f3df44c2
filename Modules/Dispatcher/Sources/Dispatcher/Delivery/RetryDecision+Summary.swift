extension RetryDecision {
    /// A short text for the timeline: `HTTP 200 delivered`, `HTTP 503 retry`, `rejected: …`.
    func summary(statusCode: Int?) -> String {
        let status = statusCode.map { "HTTP \($0) " } ?? ""
        switch self {
        case .acknowledge: return status + "delivered"
        case .retry(_, let reason): return status + "retry: " + reason
        case .split(let reason): return status + "split: " + reason
        case .reject(let reason): return status + "rejected: " + reason
        case .pause(let reason): return status + "paused: " + reason
        }
    }
}
