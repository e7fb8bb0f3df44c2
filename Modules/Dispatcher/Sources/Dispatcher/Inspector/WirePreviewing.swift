import Foundation

/// A destination that can show one event as it puts it in a request body, for the inspector's
/// detail view: the JSON value only, never a header or a credential.
protocol WirePreviewing {
    /// `segment`, `snowplow` or `ndjson`.
    var wireFormat: String { get }
    /// The JSON of `event` as it goes in a request body (readable form: see
    /// ``EncodedEvent/readable()``); nil when it cannot be shown.
    func wirePreview(of event: StoredEvent) -> [UInt8]?
}

/// Segment: the message object inside `"batch"` (the write key is a header or a sibling of
/// `"batch"`, never part of a message).
extension SegmentDestination: WirePreviewing {
    var wireFormat: String { "segment" }

    func wirePreview(of event: StoredEvent) -> [UInt8]? {
        var writer = JSONWriter(capacity: event.event.approximateSize + 320)
        encodeMessage(event.event, into: &writer)
        return writer.bytes
    }
}

/// Snowplow: the event's element of the payload's `"data"` array.
extension SnowplowDestination: WirePreviewing {
    var wireFormat: String { "snowplow" }

    func wirePreview(of event: StoredEvent) -> [UInt8]? {
        guard let request = makeRequest(for: [event], sentAt: Date()),
              let data = DeliveryJSONMembers(Array(request.body)).rawValue(named: "data") else { return nil }
        return WirePreview.soleElement(of: data)
    }
}

/// NDJSON: the event's line, without its newline.
extension NDJSONFileDestination: WirePreviewing {
    var wireFormat: String { "ndjson" }

    func wirePreview(of event: StoredEvent) -> [UInt8]? {
        var line = encode([event])
        while line.last == 0x0A { line.removeLast() }
        return line.isEmpty ? nil : line
    }
}

/// Helpers of the wire previews.
enum WirePreview {
    /// The one element of a JSON array of one element (`[ … ]`), as bytes; nil otherwise.
    static func soleElement(of array: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes = Array(array)
        while let last = bytes.last, JSONScanning.isSpace(last) { bytes.removeLast() }
        while let first = bytes.first, JSONScanning.isSpace(first) { bytes.removeFirst() }
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        let element = Array(bytes[1..<(bytes.count - 1)])
        return element.isEmpty ? nil : element
    }

    /// The wire form of `event` in `destination`'s format, and the format's name; both nil when
    /// the destination cannot show one.
    static func of(_ event: StoredEvent, in destination: (any Destination)?) -> (format: String?, wire: [UInt8]?) {
        guard let previewing = destination as? any WirePreviewing else { return (nil, nil) }
        guard let readable = try? event.event.readable() else { return (previewing.wireFormat, nil) }
        var shown = event
        shown.event = readable
        return (previewing.wireFormat, previewing.wirePreview(of: shown))
    }
}
