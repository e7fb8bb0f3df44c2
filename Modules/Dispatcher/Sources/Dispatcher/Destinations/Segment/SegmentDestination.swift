import Foundation
import Tracking

/// Delivers to a Segment-compatible batch API (`POST {endpoint}/v1/batch`), the format Segment,
/// RudderStack, Jitsu and others accept.
///
/// A feature's event (`EventKind.track`) becomes one `track` message:
/// - `event` is `"<category> <name> <action>"`, for example `"Cart checkout pay"`.
/// - `properties` holds `category`, `name` and `action`, followed by every `userData` member;
///   a `userData` key that collides with one of those three is kept as `userData.<key>`.
///
/// A screen call (`EventKind.screen`) becomes a `screen` message whose `name` is the
/// screen's name and whose `properties` are the userData as they are; an identify call
/// (`EventKind.identify`) becomes an `identify` message whose `traits` are the
/// userData as they are. Every message carries these common fields:
/// - `messageId` is the event id (lowercase UUID), the idempotency key of retries.
/// - `timestamp` is when the event was created; the body's `sentAt` is when it was sent.
/// - `anonymousId` is the event context's `anonymousId`, else its `installationId`, else this
///   destination's ``fallbackAnonymousID``; `userId` is the context's `userId` when present.
/// - `context` holds `library` (this destination's library, once: the event context's own
///   `library`, which hydration adds, is not repeated), every other event-context member except
///   `snowplowEntities` (a key colliding with `flags` is kept as `event.flags`), and `flags`,
///   the event's data-quality flags as `[{"code":…,"detail":…}]`.
///
/// Requests carry `User-Agent: <library name>/<version>` (`swift-tracking/<version>`). Bodies
/// travel gzip-compressed by default (``compression``): Segment's Tracking API decodes
/// `Content-Encoding: gzip` (see ``RequestCompression``).
/// The write key travels as HTTP Basic authorization (`base64(writeKey + ":")`) or, with
/// ``SegmentAuthentication/body``, as the batch's `writeKey` field; it is never part of a
/// description, a debug description, a mirror or an error.
public struct SegmentDestination: CompressingDestination, CustomStringConvertible, CustomDebugStringConvertible {
    /// The destination's name in reports.
    public let name: String
    /// The batch URL, `{endpoint}/v1/batch`.
    public let batchURL: URL
    /// The claim budget for one batch (sum of approximate event sizes). Defaults to 400 KB, so a
    /// full body with the per-message overhead stays under Segment's 500 KB.
    public let maxBatchBytes: Int
    /// The largest request body sent; a larger one is reported as too large without sending.
    public let maxRequestBytes: Int
    /// The largest single message; a larger event is rejected on its own (Segment: 32 KB).
    public let maxEventBytes: Int
    /// The `anonymousId` of events whose context has none.
    public let fallbackAnonymousID: String
    /// The library reported in `context.library`.
    let library: DestinationLibrary
    /// Where the write key is sent.
    public let authentication: SegmentAuthentication
    /// How request bodies travel. Defaults to ``RequestCompression/gzip``.
    public let compression: RequestCompression
    private let authorization: HTTPBasicAuthorization
    private let writeKey: RedactedSecret
    private let transport: any HTTPTransport

    /// Creates a Segment destination.
    /// - Parameters:
    ///   - endpoint: the API base, for example `https://api.segment.io`; HTTPS unless loopback.
    ///   - writeKey: the source's write key.
    ///   - authentication: where the write key is sent: Basic authorization (the default) or
    ///     the body's `writeKey` field.
    ///   - transport: how requests are sent. Defaults to ``DefaultHTTPTransport/make(requestTimeout:maxResponseBytes:)``.
    ///   - name: the destination's name in reports.
    ///   - fallbackAnonymousID: the `anonymousId` when the event context has none.
    ///   - maxBatchBytes: the claim budget for one batch. Defaults to 400 KB.
    ///   - maxRequestBytes: the largest request body sent. Defaults to 500 KB, Segment's limit.
    ///   - maxEventBytes: the largest single message. Defaults to 32 KB, Segment's limit.
    ///   - compression: how request bodies travel. Defaults to gzip.
    /// - Throws: an error saying why, when the endpoint is not acceptable.
    public init(
        endpoint: URL, writeKey: String, authentication: SegmentAuthentication = .basic, transport: any HTTPTransport = DefaultHTTPTransport.make(),
        name: String = "segment",
        fallbackAnonymousID: String = UUID().uuidString.lowercased(),
        maxBatchBytes: Int = 400_000, maxRequestBytes: Int = 500_000, maxEventBytes: Int = 32_000,
        compression: RequestCompression = .gzip
    ) throws {
        try self.init(
            endpoint: endpoint, writeKey: writeKey, authentication: authentication, transport: transport, name: name,
            library: .tracking, fallbackAnonymousID: fallbackAnonymousID,
            maxBatchBytes: maxBatchBytes, maxRequestBytes: maxRequestBytes, maxEventBytes: maxEventBytes,
            compression: compression)
    }

    /// Creates a Segment destination reporting `library` in `context.library` and the `User-Agent`.
    init(
        endpoint: URL, writeKey: String, authentication: SegmentAuthentication = .basic, transport: any HTTPTransport = DefaultHTTPTransport.make(),
        name: String = "segment", library: DestinationLibrary,
        fallbackAnonymousID: String = UUID().uuidString.lowercased(),
        maxBatchBytes: Int = 400_000, maxRequestBytes: Int = 500_000, maxEventBytes: Int = 32_000,
        compression: RequestCompression = .gzip
    ) throws {
        self.compression = compression
        batchURL = EndpointURL.appending("/v1/batch", to: try EndpointURL.validate(endpoint))
        authorization = HTTPBasicAuthorization(user: writeKey, password: "")
        self.writeKey = RedactedSecret(value: writeKey)
        self.authentication = authentication
        self.transport = transport
        self.name = name
        self.library = library
        self.fallbackAnonymousID = fallbackAnonymousID
        self.maxBatchBytes = maxBatchBytes
        self.maxRequestBytes = maxRequestBytes
        self.maxEventBytes = maxEventBytes
    }

    /// `SegmentDestination(name, url)`, without the write key.
    public var description: String { "SegmentDestination(\(name), \(EndpointURL.redacted(batchURL)))" }
    /// Same as ``description``.
    public var debugDescription: String { description }

    /// The batch URL.
    public var endpointIdentity: String { batchURL.absoluteString }

    /// Sends the batch as one request, its body compressed as ``compression`` says.
    public func deliver(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult {
        await deliver(batch, sentAt: sentAt, compression: compression)
    }

    /// Sends the batch as one request, its body compressed as `compression` says. The size
    /// limits apply to the plain body, which is also what a refusal of compression sends.
    public func deliver(_ batch: [StoredEvent], sentAt: Date, compression: RequestCompression) async -> DeliveryResult {
        let (request, rejected) = makeRequest(for: batch, sentAt: sentAt)
        guard let request else { return DeliveryResult(.delivered, rejectedEvents: rejected) }
        if request.body.count > maxRequestBytes {
            return DeliveryResult(.tooLarge(reason: "body of \(request.body.count) bytes exceeds \(maxRequestBytes)"),
                                  rejectedEvents: rejected)
        }
        return await HTTPDelivery.perform(request, via: transport, rejected: rejected, compression: compression)
    }

    /// Builds the plain request for `batch` (compression happens as it is sent), and the events refused for exceeding ``maxEventBytes``.
    /// The request is nil when no event is left to send.
    public func makeRequest(for batch: [StoredEvent], sentAt: Date) -> (HTTPRequest?, rejected: [UUID: String]) {
        var rejected: [UUID: String] = [:]
        var body = JSONWriter(capacity: batch.reduce(64) { $0 + $1.event.approximateSize + 320 })
        body.raw("{\"batch\":[")
        var count = 0
        for stored in batch {
            if worstCaseMessageBytes(stored.event) <= maxEventBytes {
                if count > 0 { body.raw(",") }
                encodeMessage(stored.event, into: &body)
            } else {
                var message = JSONWriter(capacity: stored.event.approximateSize + 320)
                encodeMessage(stored.event, into: &message)
                guard message.bytes.count <= maxEventBytes else {
                    rejected[stored.event.id] = "message of \(message.bytes.count) bytes exceeds the \(maxEventBytes)-byte limit"
                    continue
                }
                if count > 0 { body.raw(",") }
                body.raw(bytes: message.bytes)
            }
            count += 1
        }
        guard count > 0 else { return (nil, rejected) }
        body.raw("],\"sentAt\":")
        body.date(sentAt)
        var headers = ["Content-Type": "application/json", "User-Agent": library.userAgent]
        switch authentication {
        case .basic:
            headers["Authorization"] = authorization.headerValue
        case .body:
            body.raw(",\"writeKey\":")
            body.string(writeKey.value)
        }
        body.raw("}")
        let request = HTTPRequest(method: "POST", url: batchURL, headers: headers, body: Data(body.bytes))
        return (request, rejected)
    }

    /// An upper bound of the encoded size of `event`'s message: every byte escaped six-fold
    /// (`\u00XX`), category, name and action written twice, plus the fixed parts.
    private func worstCaseMessageBytes(_ event: EncodedEvent) -> Int {
        6 * (event.approximateSize + event.category.utf8.count + event.name.utf8.count + event.action.utf8.count)
            + 6 * (fallbackAnonymousID.utf8.count + library.name.utf8.count + library.version.utf8.count) + 512
    }

    /// Encodes one message into `writer`: `track`, `screen` or `identify` by the event's
    /// ``EncodedEvent/kind``.
    func encodeMessage(_ event: EncodedEvent, into writer: inout JSONWriter) {
        let context = DeliveryJSONMembers(event.contextBlob)
        let kind = event.kind
        switch kind {
        case .track:
            writer.raw("{\"type\":\"track\",\"event\":")
            writer.string(event.category + " " + event.name + " " + event.action)
        case .screen:
            writer.raw("{\"type\":\"screen\",\"name\":")
            writer.string(event.name)
        case .identify:
            writer.raw("{\"type\":\"identify\"")
        }
        writer.raw(",\"messageId\":")
        writer.uuid(event.id)
        writer.raw(",\"timestamp\":")
        writer.timestamp(milliseconds: event.timestampMilliseconds)
        writer.raw(",\"anonymousId\":")
        if let anonymous = context.rawValue(named: Keys.anonymousID) ?? context.rawValue(named: Keys.installationID),
           anonymous.first == UInt8(ascii: "\"") {
            writer.raw(bytes: anonymous)
        } else {
            writer.string(fallbackAnonymousID)
        }
        if let user = context.rawValue(named: Keys.userID), user.first == UInt8(ascii: "\"") {
            writer.raw(",\"userId\":")
            writer.raw(bytes: user)
        }
        switch kind {
        case .track:
            writer.raw(",\"properties\":{\"category\":")
            writer.string(event.category)
            writer.raw(",\"name\":")
            writer.string(event.name)
            writer.raw(",\"action\":")
            writer.string(event.action)
            writer.members(of: DeliveryJSONMembers(event.userDataBlob), leadingComma: true,
                           renaming: Keys.eventFields, prefix: Keys.userDataPrefix)
            writer.raw("}")
        case .screen, .identify:
            // Re-emitted member by member, so the message stays valid JSON whatever was stored.
            writer.raw(kind == .screen ? ",\"properties\":{" : ",\"traits\":{")
            writer.members(of: DeliveryJSONMembers(event.userDataBlob), leadingComma: false)
            writer.raw("}")
        }
        writer.raw(",\"context\":{\"library\":{\"name\":")
        writer.string(library.name)
        writer.raw(",\"version\":")
        writer.string(library.version)
        writer.raw("}")
        writer.members(of: context, leadingComma: true, skipping: Keys.segmentSkipped,
                       renaming: Keys.contextReserved, prefix: Keys.eventPrefix)
        writer.raw(",\"flags\":")
        writer.raw(bytes: event.flagsBlob)
        writer.raw("}}")
    }

    /// Key names compared as UTF-8.
    private enum Keys {
        static let anonymousID = Array("anonymousId".utf8)
        static let installationID = Array(ContextKey.installationID.utf8)
        static let userID = Array(ContextKey.userID.utf8)
        static let eventFields = [Array("category".utf8), Array("name".utf8), Array("action".utf8)]
        static let userDataPrefix = Array("userData.".utf8)
        static let segmentSkipped = [Array(ContextKey.snowplowEntities.utf8), Array(ContextKey.library.utf8)]
        static let contextReserved = [Array("flags".utf8)]
        static let eventPrefix = Array("event.".utf8)
    }
}
