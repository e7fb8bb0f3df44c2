import Foundation
import Tracking

/// How the store recognises and releases events held until consent is known.
///
/// An event whose flags carry the code `awaiting_consent` (set by the privacy stage) is stored
/// as ``EventStatus/held``: never claimed for delivery, never evicted, until
/// ``EventStore/releaseHeld(category:)`` or ``EventStore/deleteHeld(category:)``.
enum ConsentHold {
    /// The flag code that holds an event.
    static let flagCode = EventFlag.awaitingConsentCode

    /// The flag code with its quotes, as it appears in encoded flags.
    private static let quotedCode: [UInt8] = Array("\"\(flagCode)\"".utf8)

    /// The `code` member with the flag code as its value, as it appears in binary flags
    /// (``BinaryValue``): key length and bytes, string tag, value length and bytes (both short
    /// enough for a one-byte varint length).
    private static let binaryCodeMember: [UInt8] = {
        func text(_ value: String) -> [UInt8] { [UInt8(value.utf8.count)] + Array(value.utf8) }
        return text("code") + [BinaryValue.string] + text(flagCode)
    }()

    /// Whether encoded flags (JSON or binary) hold the event; a byte search, no decoding.
    static func isHeld(_ flags: [UInt8]) -> Bool {
        flags.withUnsafeBytes { isHeld($0) }
    }

    /// Whether encoded flags (JSON or binary) hold the event; a byte search, no decoding.
    static func isHeld(_ flags: UnsafeRawBufferPointer) -> Bool {
        contains(flags, BinaryValue.isBinary(flags) ? binaryCodeMember : quotedCode)
    }

    /// Whether `needle` occurs in `haystack`.
    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var start = 0
        while start <= last {
            if haystack[start] == needle[0] {
                var matched = 1
                while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// The encoded flags without `awaiting_consent`, in the form they came in (JSON or binary),
    /// written like ``EncodedEvent`` writes them (`[]` when none is left); unchanged when they
    /// cannot be decoded.
    static func released(_ encoded: [UInt8]) -> [UInt8] {
        guard let flags = EncodedEvent.decodedFlags(encoded) else { return encoded }
        let kept = flags.filter { $0.code != flagCode }
        return BinaryValue.isBinary(encoded) ? BinaryValueWriter.flags(kept) : EncodedEvent.flagsJSON(kept)
    }
}
