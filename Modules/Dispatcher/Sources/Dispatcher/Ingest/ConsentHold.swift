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

    /// Whether encoded flags hold the event; a byte search, no decoding.
    static func isHeld(_ flagsJSON: [UInt8]) -> Bool {
        let needle = quotedCode
        guard flagsJSON.count >= needle.count else { return false }
        return flagsJSON.withUnsafeBufferPointer { haystack in
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
    }

    /// The encoded flags without `awaiting_consent`, written like ``EncodedEvent`` writes them;
    /// unchanged when they cannot be decoded.
    static func released(_ flagsJSON: [UInt8]) -> [UInt8] {
        guard let flags = try? JSONDecoder().decode([EventFlag].self, from: Data(flagsJSON)) else { return flagsJSON }
        return EncodedEvent.flagsJSON(flags.filter { $0.code != flagCode })
    }
}
