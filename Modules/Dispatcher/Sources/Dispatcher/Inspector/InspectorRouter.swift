import Foundation
import Tracking

/// Answers one connection of the inspector: reads the request head, checks `Host`, `Origin`,
/// `Sec-Fetch-Site` and the method, and serves the route (`/`, `/api/events`, `/api/events/<id>`, `/api/health`,
/// `/api/stream`). One request per connection; a stream's connection goes to
/// ``InspectorStreams``.
struct InspectorRouter: Sendable {
    /// Where the data comes from.
    let source: any InspectorSource
    /// The port listened on (the only one `Host` and `Origin` may name).
    let port: UInt16
    /// The receipts recorded for an event.
    let receipts: @Sendable (UUID) -> [Receipt]
    /// Diagnostics and rates.
    let history: InspectorHistory
    /// The open streams.
    let streams: InspectorStreams
    /// Told of each API request (for ``InspectorServer/isWatched``).
    let watch: InspectorWatch

    /// Serves `connection`; returns whether it became a stream (kept open).
    func serve(_ connection: Int32) -> Bool {
        let request: InspectorRequest
        switch InspectorRequest.read(from: connection) {
        case .failure(.closed):
            return false
        case .failure(.tooLarge):
            return finish(connection, .text("request head too large", status: 431))
        case .failure(.timedOut):
            return finish(connection, .text("request head not received in time", status: 408))
        case .failure(.malformed(let reason)):
            return finish(connection, .text("bad request: \(reason)", status: 400))
        case .success(let parsed):
            request = parsed
        }
        if let refusal = refusal(of: request) { return finish(connection, refusal) }
        if request.path.hasPrefix("/api/") { watch.touch() }
        let headOnly = request.method == "HEAD"
        if request.path == "/api/stream" {
            guard InspectorSocket.sendAll(connection, InspectorResponse.streamHead(headOnly: headOnly)), !headOnly else { return false }
            streams.open(connection)
            return true
        }
        return finish(connection, route(request), headOnly: headOnly)
    }

    /// Sends `response`, then lets the client finish sending (what it sent past a refused head
    /// is read and dropped for up to half a second) so that closing does not reset the answer away.
    private func finish(_ connection: Int32, _ response: InspectorResponse, headOnly: Bool = false) -> Bool {
        guard InspectorSocket.sendAll(connection, response.bytes(headOnly: headOnly)) else { return false }
        InspectorSocket.shutDownWriting(connection)
        let deadline = InspectorDeadline(seconds: 0.5)
        var drained: [UInt8] = []
        while drained.count < 1 << 16, deadline.isPending,
              InspectorSocket.waitReadable(connection, milliseconds: deadline.remainingMilliseconds),
              InspectorSocket.receive(connection, into: &drained, count: 4096) != nil {
            drained.removeAll(keepingCapacity: true)
        }
        return false
    }

    /// The 403 or 405 a request gets before any route, nil when it may go on.
    func refusal(of request: InspectorRequest) -> InspectorResponse? { Self.refusal(of: request, port: port) }

    /// The 403 or 405 a request to `port` gets before any route, nil when it may go on.
    static func refusal(of request: InspectorRequest, port: UInt16) -> InspectorResponse? {
        var hosts: Set<String> = ["127.0.0.1:\(port)", "localhost:\(port)"]
        // A browser leaves the default port out of `Host` and `Origin`.
        if port == 80 { hosts.formUnion(["127.0.0.1", "localhost"]) }
        guard request.count(of: "host") == 1, let host = request.headers["host"], hosts.contains(host.lowercased()) else {
            return .text("host not allowed", status: 403)
        }
        if let origin = request.headers["origin"], !hosts.contains(where: { "http://" + $0 == origin.lowercased() }) {
            return .text("origin not allowed", status: 403)
        }
        if request.count(of: "origin") > 1 { return .text("origin not allowed", status: 403) }
        // Another site's no-cors request (`<img>`, `fetch` in no-cors mode) sends no Origin, but
        // a browser says where it comes from here. A link followed from another site to the page
        // itself is let through: the page holds no data, and its own requests are same-origin.
        if let site = request.headers["sec-fetch-site"], site.lowercased() != "same-origin", site.lowercased() != "none",
           !Self.isPageNavigation(request) {
            return .text("cross-site request refused", status: 403)
        }
        guard request.method == "GET" || request.method == "HEAD" else { return .error("method not allowed", status: 405) }
        return nil
    }

    /// Whether `request` is a browser opening the page itself in a tab (a followed link).
    static func isPageNavigation(_ request: InspectorRequest) -> Bool {
        request.path == "/" && request.headers["sec-fetch-mode"]?.lowercased() == "navigate"
            && request.headers["sec-fetch-dest"]?.lowercased() == "document"
    }

    /// The answer of a checked GET or HEAD.
    func route(_ request: InspectorRequest) -> InspectorResponse {
        do {
            switch request.path {
            case "/":
                return .page()
            case "/api/events":
                let asked = request.queryValue("limit")
                let limit = asked.map { Int($0) } ?? InspectorStreams.limit
                guard let limit, limit >= 0 else { return .error("limit must be a whole number from 0 to 1000", status: 400) }
                let records = try source.recent(limit: min(limit, InspectorStreams.limit))
                return .json(InspectorEncoding.eventList(records, total: source.total(), readOnly: source.isReadOnly))
            case "/api/health":
                return .json(Self.health(of: source, history: history))
            default:
                let prefix = "/api/events/"
                guard request.path.hasPrefix(prefix) else { return .error("not found", status: 404) }
                guard let id = UUID(uuidString: String(request.path.dropFirst(prefix.count))),
                      let detail = try source.detail(of: id) else { return .error("no such event", status: 404) }
                return .json(InspectorEncoding.detail(detail, receipts: receipts(id)))
            }
        } catch {
            return .error("the store could not be read: \(error)", status: 500)
        }
    }

    /// The Health body of `source`, noting its current problems in `history`.
    static func health(of source: any InspectorSource, history: InspectorHistory) -> [UInt8] {
        let health = source.health()
        // What was reported and what holds now, by time, the last ones kept.
        let merged = (history.diagnostics(noting: health.conditions) + health.reported).sorted { $0.at < $1.at }
        let diagnostics = Array(merged.suffix(InspectorHistory.diagnosticsKept))
        return InspectorEncoding.health(health, diagnostics: diagnostics, rates: history.rates)
    }
}
