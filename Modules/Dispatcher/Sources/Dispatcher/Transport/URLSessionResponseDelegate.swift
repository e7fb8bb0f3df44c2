import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tracking

/// The `URLSession` delegate of ``URLSessionTransport``: collects each task's body up to its
/// bound (past it, cancels the task and answers with what it kept), hands each task's result to
/// its ``TransportCompletion``, and refuses every HTTP redirect, so the 3xx itself comes back
/// and a request and its `Authorization` header never reach a host other than the endpoint.
final class URLSessionResponseDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// The tasks in flight, by task identifier.
    private let tasks = LockedValue<[Int: Entry]>([:])

    /// One task in flight.
    private struct Entry: Sendable {
        var completion: TransportCompletion
        var maxBodyBytes: Int
        var timeout: TimeInterval
        var body = Data()
    }

    /// Follows `task` until it completes or ``forget(_:)``.
    func track(_ task: URLSessionTask, maxBodyBytes: Int, timeout: TimeInterval, completion: TransportCompletion) {
        tasks.withLock { $0[task.taskIdentifier] = Entry(completion: completion, maxBodyBytes: maxBodyBytes, timeout: timeout) }
    }

    /// Stops following `task`.
    func forget(_ task: URLSessionTask) {
        _ = tasks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// Keeps the bytes that fit; past the bound, answers with them and cancels the task.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow: (TransportCompletion, Data)? = tasks.withLock { tasks in
            guard var entry = tasks[dataTask.taskIdentifier] else { return nil }
            let room = entry.maxBodyBytes - entry.body.count
            if data.count <= room {
                entry.body.append(data)
                tasks[dataTask.taskIdentifier] = entry
                return nil
            }
            entry.body.append(data.prefix(max(0, room)))
            tasks[dataTask.taskIdentifier] = nil
            return (entry.completion, entry.body)
        }
        guard let (completion, body) = overflow else { return }
        completion.finish(Self.response(dataTask.response, body: body, truncated: true))
        dataTask.cancel()
    }

    /// Answers with the whole response, or the error.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            entry.completion.finish(.failure(Self.transportError(error, timeout: entry.timeout)))
        } else {
            entry.completion.finish(Self.response(task.response, body: entry.body, truncated: false))
        }
    }

    /// Answers `nil`: the redirect is not followed.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    private static func response(_ response: URLResponse?, body: Data, truncated: Bool) -> Result<HTTPResponse, TransportError> {
        guard let http = response as? HTTPURLResponse else { return .failure(.invalidResponse("not an HTTP response")) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let name = key as? String, let text = value as? String { headers[name] = text }
        }
        return .success(HTTPResponse(statusCode: http.statusCode, headers: headers, body: body, bodyTruncated: truncated))
    }

    private static func transportError(_ error: any Error, timeout: TimeInterval) -> TransportError {
        guard let error = error as? URLError else { return .network(String(describing: error)) }
        switch error.code {
        case .timedOut: return .timedOut(seconds: timeout)
        case .cancelled: return .cancelled
        default: return .network("\(error.code.rawValue) \(error.localizedDescription)")
        }
    }
}
