import Foundation
import Tracking

/// Fast writers for the values every wire format needs: ids, timestamps, spliced fragments.
extension JSONWriter {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `uuid` as a quoted, lowercase RFC 9562 string.
    mutating func uuid(_ uuid: UUID) {
        var text = [UInt8](repeating: UInt8(ascii: "\""), count: 38)
        var position = 1
        withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                text[position] = Self.hexDigits[Int(byte >> 4)]
                text[position + 1] = Self.hexDigits[Int(byte & 0x0F)]
                position += 2
            }
        }
        raw(bytes: text)
    }

    /// Appends the members of a scanned object (without braces), skipping those named in
    /// `skipping` and prefixing the keys named in `renaming` with `prefix` (names as UTF-8).
    ///
    /// Consecutive members kept as they are go out as one splice of the scanned bytes, commas
    /// included: one append for a whole object in the usual case.
    /// - Returns: whether anything was written.
    @discardableResult
    mutating func members(
        of object: DeliveryJSONMembers, leadingComma: Bool, skipping: [[UInt8]] = [],
        renaming: [[UInt8]] = [], prefix: [UInt8] = []
    ) -> Bool {
        var wroteAny = false
        /// The start of the run of unchanged members not yet written (at its key's opening quote).
        var runStart: Int?
        var runEnd = 0
        func flushRun(_ writer: inout JSONWriter) {
            guard let start = runStart else { return }
            if leadingComma || wroteAny { writer.raw(",") }
            writer.raw(bytes: object.bytes[start..<runEnd])
            wroteAny = true
            runStart = nil
        }
        for member in object.members {
            if !skipping.isEmpty, skipping.contains(where: { object.key(of: member, is: $0) }) {
                flushRun(&self)
                continue
            }
            if !renaming.isEmpty, renaming.contains(where: { object.key(of: member, is: $0) }) {
                flushRun(&self)
                if leadingComma || wroteAny { raw(",") }
                raw("\"")
                raw(bytes: prefix)
                raw(bytes: object.bytes[member.key])
                raw("\":")
                raw(bytes: object.bytes[member.value])
                wroteAny = true
                continue
            }
            if runStart == nil { runStart = member.key.lowerBound - 1 }
            runEnd = member.value.upperBound
        }
        flushRun(&self)
        return wroteAny
    }
}
