import Foundation
import Tracking

/// A fast, allocation-light JSON writer that appends UTF-8 bytes to a buffer: the one the core
/// uses for its own output, for packages that encode events (the Dispatcher's store and wire
/// formats).
///
/// Keys are written in the order given; ``Tracking/UserData`` objects are written with sorted
/// keys, so the same data always produces the same bytes. A value is written at most
/// ``Tracking/UserDataValue/maximumDepth`` arrays and objects deep: a deeper one is written as
/// ``Tracking/UserDataValue/truncationPlaceholder`` and ``truncated`` is set, so the output
/// always parses.
public struct JSONWriter: Sendable {
    /// The core's writer, which does the work.
    private var base: Tracking.JSONWriter

    /// Creates a writer.
    /// - Parameter capacity: bytes to reserve up front.
    public init(capacity: Int = 256) { base = Tracking.JSONWriter(capacity: capacity) }

    /// The bytes written so far.
    public var bytes: [UInt8] { base.bytes }

    /// Whether something nested deeper than ``Tracking/UserDataValue/maximumDepth`` was written
    /// as the placeholder.
    public var truncated: Bool { base.truncated }

    /// The bytes written so far, as a string.
    public var string: String { base.string }

    /// Appends raw, already-valid JSON bytes.
    public mutating func raw(_ text: StaticString) { base.raw(text) }

    /// Appends raw, already-valid JSON bytes.
    public mutating func raw(bytes other: some Collection<UInt8>) { base.raw(bytes: other) }

    /// Appends a JSON string literal, escaped.
    public mutating func string(_ value: String) { base.string(value) }

    /// Appends an integer.
    public mutating func int(_ value: some BinaryInteger) { base.int(value) }

    /// Appends a double; a non-finite one is written as the string `"NaN"`, `"Infinity"` or
    /// `"-Infinity"`, since JSON has no form for it.
    public mutating func double(_ value: Double) { base.double(value) }

    /// Appends `true` or `false`.
    public mutating func bool(_ value: Bool) { base.bool(value) }

    /// Appends `null`.
    public mutating func null() { base.null() }

    /// Appends a date as a quoted ISO-8601 string with milliseconds, in UTC.
    public mutating func date(_ value: Date) { base.date(value) }

    /// Appends a time in milliseconds since 1970 as a quoted ISO-8601 UTC string with
    /// milliseconds, `"2026-11-21T10:00:00.123Z"`, without allocating.
    public mutating func timestamp(milliseconds: Int64) { base.timestamp(milliseconds: milliseconds) }

    /// Appends a ``Tracking/UserDataValue``, cut at ``Tracking/UserDataValue/maximumDepth``.
    public mutating func value(_ value: UserDataValue) { base.value(value) }

    /// Appends an object, cut at ``Tracking/UserDataValue/maximumDepth``.
    /// - Parameters:
    ///   - values: the members.
    ///   - sortedKeys: write keys in sorted order, so equal data gives equal bytes (default);
    ///     `false` writes them in the dictionary's order, which is cheaper.
    public mutating func object(_ values: [String: UserDataValue], sortedKeys: Bool = true) {
        base.object(values, sortedKeys: sortedKeys)
    }
}
