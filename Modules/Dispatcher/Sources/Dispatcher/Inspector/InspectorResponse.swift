import Foundation

/// One answer of the inspector, with the security headers every answer carries: a
/// Content-Security-Policy allowing only the page's own nonce'd script and style, no sniffing,
/// no framing, no referrer, no caching.
struct InspectorResponse {
    /// The status code.
    var status: Int
    /// The `Content-Type`.
    var contentType: String
    /// The body (left out of the bytes for a `HEAD` request).
    var body: [UInt8]
    /// The nonce of the Content-Security-Policy (the page's `<script>` and `<style>` carry it).
    var nonce: String

    /// A JSON answer: `body` goes through ``InspectorJSON/safe(_:)``.
    static func json(_ body: [UInt8], status: Int = 200) -> InspectorResponse {
        InspectorResponse(status: status, contentType: "application/json; charset=utf-8", body: InspectorJSON.safe(body), nonce: makeNonce())
    }

    /// A JSON `{"error": message}` answer.
    static func error(_ message: String, status: Int) -> InspectorResponse {
        var writer = JSONWriter(capacity: message.utf8.count + 16)
        writer.raw("{\"error\":")
        writer.string(message)
        writer.raw("}")
        return json(writer.bytes, status: status)
    }

    /// A plain-text answer.
    static func text(_ message: String, status: Int) -> InspectorResponse {
        InspectorResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(message.utf8), nonce: makeNonce())
    }

    /// The page, with a fresh nonce in its tags and in the policy.
    static func page() -> InspectorResponse {
        let nonce = makeNonce()
        return InspectorResponse(status: 200, contentType: "text/html; charset=utf-8",
                                 body: Array(InspectorPage.html(nonce: nonce).utf8), nonce: nonce)
    }

    /// 128 random bits, base64.
    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// The headers every answer carries, each line ending in CRLF.
    static func securityHeaders(nonce: String) -> String {
        "Content-Security-Policy: default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; "
            + "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n"
            + "X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\nCache-Control: no-store\r\n"
    }

    /// The reason phrase of `status`.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// The bytes to send: status line, headers, and the body unless `headOnly`. Every answer
    /// closes the connection (one request per connection).
    func bytes(headOnly: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        if status == 405 { head += "Allow: GET, HEAD\r\n" }
        head += Self.securityHeaders(nonce: nonce) + "\r\n"
        return headOnly ? Array(head.utf8) : Array(head.utf8) + body
    }

    /// The head of an event stream (`text/event-stream`), which stays open, and its first
    /// field: a page that loses the stream reconnects after 1 s (the browser's default is 3).
    /// For `HEAD` (`headOnly`) the head alone, with no field.
    static func streamHead(headOnly: Bool = false) -> [UInt8] {
        Array(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
               + securityHeaders(nonce: makeNonce()) + "\r\n" + (headOnly ? "" : "retry: 1000\n\n")).utf8)
    }
}
