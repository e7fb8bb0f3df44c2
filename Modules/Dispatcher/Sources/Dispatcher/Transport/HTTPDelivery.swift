import Foundation

/// Sends one request for an HTTP destination and classifies what came back.
enum HTTPDelivery {
    /// Sends `request` through `transport`, its body compressed as `compression` says; the
    /// result's ``DeliveryResult/rejectedEvents`` are `rejected` whatever the outcome.
    ///
    /// A compressed body answered `415`, or `400`, is sent again plain at once, and the plain
    /// answer is the result. The result is marked ``DeliveryResult/compressionRefused`` after a
    /// `415`, or after a `400` that the plain body does not get (a `400` for both is the body's
    /// fault: an ordinary rejection). The first answer's body is never read.
    static func perform(
        _ request: HTTPRequest, via transport: any HTTPTransport, rejected: [UUID: String],
        compression: RequestCompression = .plain
    ) async -> DeliveryResult {
        guard let compressed = encoded(request, compression) else {
            return await send(request, via: transport, rejected: rejected)
        }
        let first = await send(compressed, via: transport, rejected: rejected)
        guard let refusal = first.statusCode, refusal == 415 || refusal == 400 else { return first }
        var plain = await send(request, via: transport, rejected: rejected)
        plain.compressionRefused = refusal == 415 || plain.statusCode.map { (200..<300).contains($0) } == true
        return plain
    }

    /// `request` with its body compressed and the matching `Content-Encoding`; nil for plain
    /// bodies, or when the encoder fails.
    static func encoded(_ request: HTTPRequest, _ compression: RequestCompression) -> HTTPRequest? {
        guard compression != .plain, let body = compression.encode(request.body) else { return nil }
        var compressed = request
        compressed.body = body
        compressed.headers["Content-Encoding"] = compression.rawValue
        return compressed
    }

    private static func send(_ request: HTTPRequest, via transport: any HTTPTransport, rejected: [UUID: String]) async -> DeliveryResult {
        do {
            let response = try await transport.send(request)
            return DeliveryResult(DeliveryOutcome(response: response), rejectedEvents: rejected,
                                  statusCode: response.statusCode)
        } catch {
            return DeliveryResult(DeliveryOutcome(error: error), rejectedEvents: rejected)
        }
    }
}
