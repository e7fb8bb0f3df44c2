import Foundation

/// Sends one request for an HTTP destination and classifies what came back.
enum HTTPDelivery {
    /// Sends `request` through `transport`; the result's ``DeliveryResult/rejectedEvents`` are
    /// `rejected` whatever the outcome.
    static func perform(
        _ request: HTTPRequest, via transport: any HTTPTransport, rejected: [UUID: String]
    ) async -> DeliveryResult {
        do {
            let response = try await transport.send(request)
            return DeliveryResult(DeliveryOutcome(response: response), rejectedEvents: rejected,
                                  statusCode: response.statusCode)
        } catch {
            return DeliveryResult(DeliveryOutcome(error: error), rejectedEvents: rejected)
        }
    }
}
