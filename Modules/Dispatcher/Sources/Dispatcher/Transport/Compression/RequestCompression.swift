import Foundation

/// How a destination's request bodies travel: gzip-compressed (`Content-Encoding: gzip`) or
/// plain.
///
/// What each collector accepts, from its own documentation and code:
/// - Segment's Tracking API (`api.segment.io`, `/v1/batch`) decodes `Content-Encoding: gzip`:
///   Segment's own mobile libraries send their batches gzipped (Segment, "Gzip",
///   https://f2prateek.com/2016/06/05/gzip/). ``SegmentDestination`` defaults to ``gzip``.
///   Segment-compatible collectors (RudderStack, Jitsu, a proxy) may not decode it; the
///   fallback below covers them.
/// - The Snowplow collector (Scala stream collector, Snowplow Micro) does not decode gzip
///   request bodies: support is an open request (snowplow/stream-collector#9,
///   https://github.com/snowplow/stream-collector/issues/9), and Snowplow's Android tracker
///   withdrew its gzip option for that reason (snowplow-android-tracker#295).
///   ``SnowplowDestination`` defaults to ``plain``.
/// - ``NDJSONFileDestination`` writes a local file: nothing travels, nothing is compressed.
///
/// A collector that refuses a compressed body (`415`, or `400` while the same batch sent plain
/// is accepted) costs no event: the batch is sent again plain at once, without counting an
/// attempt, and the Dispatcher remembers, in its store, to send that endpoint plain bodies
/// (a different endpoint starts again from the destination's setting).
public enum RequestCompression: String, Sendable, Equatable, CaseIterable, Codable {
    /// gzip (RFC 1952) with `Content-Encoding: gzip`.
    case gzip
    /// The body as it is.
    case plain

    /// `body` as this compression sends it; nil when gzip fails (the body then goes plain).
    public func encode(_ body: Data) -> Data? {
        switch self {
        case .gzip: GzipEncoder.encode(body)
        case .plain: body
        }
    }
}
