import Foundation
import Tracking

/// Delivers to a Snowplow collector: `POST {endpoint}/com.snowplowanalytics.snowplow/tp2` with a
/// payload_data 1-0-4 body, `{"schema":"iglu:…/payload_data/jsonschema/1-0-4","data":[…]}`.
///
/// Every event is an object of strings: `e` (`se` or `ue`), `eid` (event id, lowercase UUID),
/// `dtm` (created, ms since 1970), `stm` (sent, ms), `tv` (tracker version), `p` (platform,
/// `mob`), `aid` (app id), `tna` (namespace), `duid` (the event context's `installationId`) and
/// `uid` (its `userId`), each when present, and `co`.
///
/// By `EventKind`:
/// - A feature's event is a structured event (`e=se`): `se_ca` = category, `se_ac` = action,
///   `se_la` = name, `se_pr` = the userData JSON.
/// - A screen call is a self-describing event (`e=ue`) whose `ue_pr` wraps the official
///   `com.snowplowanalytics.mobile/screen_view` 1-0-0 event (`screen_view`),
///   `{"name": screen name, "id": event id}`. The screen's
///   properties, which that schema has no place for, travel in a ``userDataSchema``
///   entity.
/// - An identify call: Snowplow has no identify event. The user id is in `uid`, as on every
///   event; the call itself is a structured event (`e=se`, `se_ca` `$identify`, `se_ac` and
///   `se_la` `identify`, no `se_pr`), which every collector and enrichment accepts without a
///   schema; the traits travel in a ``userDataSchema`` entity.
///
/// The ``userDataSchema`` entity (this library's own schema: register
/// ``userDataDefinition``) is `{"userData": {…}, "flags": […]}` and is left out
/// when the call has neither data nor flags.
///
/// Entities: when the event context holds a `snowplowEntities` key whose value is an array of
/// self-describing `{"schema": "iglu:…", "data": {…}}` objects (the data-quality stage puts
/// `client_session` 1-0-2 and `mobile_context` 1-0-3 there), they are sent verbatim in `co` as a
/// contexts 1-0-1 wrapper, followed by the `user_data` entity of an identify or screen call.
/// A `client_session` entity without `eventIndex` (hydration shares one entity between the
/// events of a session) gets the context's `session.eventIndex`, clamped to `Int32`.
/// Other context members are not sent to Snowplow.
///
/// Requests carry `User-Agent: swift-tracking/<version>` (the library's name and version).
/// Bodies travel plain by default (``compression``): the Snowplow collector does not decode
/// `Content-Encoding: gzip` (see ``RequestCompression``).
public struct SnowplowDestination: CompressingDestination, CustomStringConvertible {
    /// The destination's name in reports.
    public let name: String
    /// The collector URL, `{endpoint}/com.snowplowanalytics.snowplow/tp2`.
    public let collectorURL: URL
    /// The claim budget for one batch. Defaults to 200 KB.
    public let maxBatchBytes: Int
    /// The largest request body sent; a larger one is reported as too large without sending.
    /// Defaults to 1 MB, the collector's default limit.
    public let maxRequestBytes: Int
    /// `aid`.
    public let appID: String
    /// `tna`.
    public let namespace: String
    /// `p`.
    public let platform: String
    /// `tv`.
    public let trackerVersion: String
    /// How request bodies travel. Defaults to ``RequestCompression/plain``.
    public let compression: RequestCompression
    /// How events are encoded.
    let encoding: SnowplowEventEncoding
    private let transport: any HTTPTransport

    /// Creates a Snowplow destination.
    /// - Parameters:
    ///   - endpoint: the collector base, for example `https://collector.example.com`.
    ///   - appID: the application id (`aid`).
    ///   - transport: how requests are sent. Defaults to ``DefaultHTTPTransport/make(requestTimeout:maxResponseBytes:)``.
    ///   - name: the destination's name in reports.
    ///   - namespace: the tracker namespace (`tna`).
    ///   - platform: the platform (`p`). Defaults to `mob`.
    ///   - trackerVersion: the tracker version (`tv`). Defaults to this library's name and version.
    ///   - maxBatchBytes: the claim budget for one batch. Defaults to 200 KB.
    ///   - maxRequestBytes: the largest request body sent. Defaults to 1 MB, the collector's default limit.
    ///   - compression: how request bodies travel. Defaults to plain.
    /// - Throws: an error saying why, when the endpoint is not acceptable.
    public init(
        endpoint: URL, appID: String, transport: any HTTPTransport = DefaultHTTPTransport.make(),
        name: String = "snowplow", namespace: String = "tracking", platform: String = "mob",
        trackerVersion: String = TrackingLibrary.name + "-" + TrackingLibrary.version,
        maxBatchBytes: Int = 200_000, maxRequestBytes: Int = 1_000_000, compression: RequestCompression = .plain
    ) throws {
        try self.init(
            endpoint: endpoint, appID: appID, transport: transport, name: name, namespace: namespace, platform: platform,
            trackerVersion: trackerVersion, encoding: .structured, maxBatchBytes: maxBatchBytes, maxRequestBytes: maxRequestBytes,
            compression: compression)
    }

    /// Creates a Snowplow destination encoding a feature's events as `encoding` says.
    init(
        endpoint: URL, appID: String, transport: any HTTPTransport = DefaultHTTPTransport.make(),
        name: String = "snowplow", namespace: String = "tracking", platform: String = "mob",
        trackerVersion: String = TrackingLibrary.name + "-" + TrackingLibrary.version,
        encoding: SnowplowEventEncoding, maxBatchBytes: Int = 200_000,
        maxRequestBytes: Int = 1_000_000, compression: RequestCompression = .plain
    ) throws {
        self.compression = compression
        collectorURL = EndpointURL.appending("/com.snowplowanalytics.snowplow/tp2", to: try EndpointURL.validate(endpoint))
        self.transport = transport
        self.name = name
        self.appID = appID
        self.namespace = namespace
        self.platform = platform
        self.trackerVersion = trackerVersion
        self.encoding = encoding
        self.maxBatchBytes = maxBatchBytes
        self.maxRequestBytes = maxRequestBytes
    }

    /// `SnowplowDestination(name, url)`.
    public var description: String { "SnowplowDestination(\(name), \(EndpointURL.redacted(collectorURL)))" }

    /// The collector URL.
    public var endpointIdentity: String { collectorURL.absoluteString }

    /// Sends the batch as one request, its body compressed as ``compression`` says.
    public func deliver(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult {
        await deliver(batch, sentAt: sentAt, compression: compression)
    }

    /// Sends the batch as one request, its body compressed as `compression` says; the size
    /// limit applies to the plain body.
    public func deliver(_ batch: [StoredEvent], sentAt: Date, compression: RequestCompression) async -> DeliveryResult {
        guard let request = makeRequest(for: batch, sentAt: sentAt) else { return .delivered }
        if request.body.count > maxRequestBytes {
            return DeliveryResult(.tooLarge(reason: "body of \(request.body.count) bytes exceeds \(maxRequestBytes)"))
        }
        return await HTTPDelivery.perform(request, via: transport, rejected: [:], compression: compression)
    }

    /// Builds the plain request for `batch` (compression happens as it is sent); nil when the
    /// batch is empty.
    public func makeRequest(for batch: [StoredEvent], sentAt: Date) -> HTTPRequest? {
        guard !batch.isEmpty else { return nil }
        let sentMilliseconds = String(Int64((sentAt.timeIntervalSince1970 * 1000).rounded(.down)))
        var body = JSONWriter(capacity: batch.reduce(96) { $0 + $1.event.approximateSize * 2 + 256 })
        body.raw("{\"schema\":")
        body.string(SnowplowSchemas.payloadData)
        body.raw(",\"data\":[")
        for (index, stored) in batch.enumerated() {
            if index > 0 { body.raw(",") }
            encodeEvent(stored.event, sentMilliseconds: sentMilliseconds, into: &body)
        }
        body.raw("]}")
        return HTTPRequest(method: "POST", url: collectorURL,
                           headers: ["Content-Type": "application/json; charset=utf-8",
                                     "User-Agent": DestinationLibrary.tracking.userAgent], body: Data(body.bytes))
    }

    private func encodeEvent(_ event: EncodedEvent, sentMilliseconds: String, into writer: inout JSONWriter) {
        let context = DeliveryJSONMembers(event.contextBlob)
        let kind = event.kind
        writer.raw("{\"e\":")
        switch kind {
        case .track:
            encodeTrack(event, into: &writer)
        case .screen:
            Self.encodeUnstructured(schema: SnowplowSchemas.screenView, capacity: event.name.utf8.count + 256, into: &writer) { data in
                data.raw("\"name\":")
                data.string(event.name)
                data.raw(",\"id\":")
                data.uuid(event.id)
            }
        case .identify:
            Self.encodeStructuredFields(event, into: &writer)
        }
        writer.raw(",\"eid\":")
        writer.uuid(event.id)
        writer.raw(",\"dtm\":\"")
        writer.raw(bytes: String(event.timestampMilliseconds).utf8)
        writer.raw("\",\"stm\":\"")
        writer.raw(bytes: sentMilliseconds.utf8)
        writer.raw("\",\"tv\":")
        writer.string(trackerVersion)
        writer.raw(",\"p\":")
        writer.string(platform)
        writer.raw(",\"aid\":")
        writer.string(appID)
        writer.raw(",\"tna\":")
        writer.string(namespace)
        if let installationID = context.string(named: ContextKey.installationID) {
            writer.raw(",\"duid\":")
            writer.string(installationID)
        }
        if let userID = context.string(named: ContextKey.userID) {
            writer.raw(",\"uid\":")
            writer.string(userID)
        }
        let shared = context.rawValue(named: ContextKey.snowplowEntities).flatMap { $0.first == UInt8(ascii: "[") ? $0 : nil }
            .map { Self.fillingClientSessionEventIndex($0, context: context) }
        let own = kind == .track ? nil : userDataEntity(event)
        if shared != nil || own != nil {
            var contexts = JSONWriter(capacity: (shared?.count ?? 0) + (own?.count ?? 0) + 96)
            contexts.raw("{\"schema\":")
            contexts.string(SnowplowSchemas.contexts)
            contexts.raw(",\"data\":")
            if let own {
                contexts.raw("[")
                if let shared, let interior = Self.interior(ofArray: shared) {
                    contexts.raw(bytes: interior)
                    contexts.raw(",")
                }
                contexts.raw(bytes: own)
                contexts.raw("]")
            } else if let shared {
                contexts.raw(bytes: shared)
            }
            contexts.raw("}")
            writer.raw(",\"co\":")
            writer.string(contexts.string)
        }
        writer.raw("}")
    }

    /// The fields of a feature's event, from `se` or `ue` on, as ``encoding`` says.
    private func encodeTrack(_ event: EncodedEvent, into writer: inout JSONWriter) {
        switch encoding {
        case .structured:
            Self.encodeStructuredFields(event, into: &writer)
            writer.raw(",\"se_pr\":")
            writer.string(String(decoding: event.userDataBlob, as: UTF8.self))
        case .selfDescribing(let schema):
            let capacity = event.userDataBlob.count + event.flagsBlob.count + 256
            Self.encodeUnstructured(schema: schema, capacity: capacity, into: &writer) { data in
                data.raw("\"category\":")
                data.string(event.category)
                data.raw(",\"name\":")
                data.string(event.name)
                data.raw(",\"action\":")
                data.string(event.action)
                data.raw(",\"userData\":")
                data.raw(bytes: event.userDataBlob)
                data.raw(",\"flags\":")
                data.raw(bytes: event.flagsBlob)
            }
        }
    }

    /// `"se"` and the event's category, action and name as `se_ca`, `se_ac` and `se_la`.
    private static func encodeStructuredFields(_ event: EncodedEvent, into writer: inout JSONWriter) {
        writer.raw("\"se\",\"se_ca\":")
        writer.string(event.category)
        writer.raw(",\"se_ac\":")
        writer.string(event.action)
        writer.raw(",\"se_la\":")
        writer.string(event.name)
    }

    /// `"ue"` and `ue_pr`: an unstruct_event 1-0-0 envelope around a `schema` event whose data
    /// members (without braces) `writeData` writes.
    private static func encodeUnstructured(
        schema: String, capacity: Int, into writer: inout JSONWriter, data writeData: (inout JSONWriter) -> Void
    ) {
        var inner = JSONWriter(capacity: capacity)
        inner.raw("{\"schema\":")
        inner.string(SnowplowSchemas.unstructEvent)
        inner.raw(",\"data\":{\"schema\":")
        inner.string(schema)
        inner.raw(",\"data\":{")
        writeData(&inner)
        inner.raw("}}}")
        writer.raw("\"ue\",\"ue_pr\":")
        writer.string(inner.string)
    }

    /// The ``userDataSchema`` entity of an identify or screen call, or `nil` when the
    /// event has neither userData nor flags.
    private func userDataEntity(_ event: EncodedEvent) -> [UInt8]? {
        let userData = DeliveryJSONMembers(event.userDataBlob)
        let flags = Self.interior(ofArray: event.flagsBlob[...])
        guard !userData.isEmpty || flags != nil else { return nil }
        var entity = JSONWriter(capacity: event.userDataBlob.count + event.flagsBlob.count + 96)
        entity.raw("{\"schema\":")
        entity.string(SnowplowSchemas.userData)
        entity.raw(",\"data\":{\"userData\":{")
        // Re-emitted member by member, so the entity stays valid JSON whatever was stored.
        entity.members(of: userData, leadingComma: false)
        entity.raw("}")
        if flags != nil {
            entity.raw(",\"flags\":")
            entity.raw(bytes: event.flagsBlob)
        }
        entity.raw("}}")
        return entity.bytes
    }

    /// The bytes between the brackets of a compact JSON array, or `nil` when it is empty or
    /// not an array.
    private static func interior(ofArray array: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard array.count > 2, array.first == UInt8(ascii: "["), array.last == UInt8(ascii: "]") else { return nil }
        return array.dropFirst().dropLast()
    }
}
