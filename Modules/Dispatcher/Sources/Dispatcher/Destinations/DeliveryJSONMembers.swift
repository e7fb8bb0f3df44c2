import Foundation

/// The top-level members of a compact JSON object, found by scanning its bytes once without
/// decoding: lets wire encoders pick out or rename a few keys and splice the rest verbatim.
///
/// The input is trusted to be valid JSON (it was written by ``Tracking/JSONWriter``); malformed
/// input yields the members found before the fault, never a crash.
struct DeliveryJSONMembers {
    /// One `"key": value` member: byte ranges into the scanned buffer.
    struct Member {
        /// The key's bytes between the quotes, still escaped.
        var key: Range<Int>
        /// The value's bytes, as written.
        var value: Range<Int>
    }

    /// The scanned bytes.
    let bytes: [UInt8]
    /// The members, in order.
    private(set) var members: [Member] = []

    /// Scans `bytes`, which should hold one JSON object.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        members = Self.scan(bytes)
    }

    /// Whether the object has no members.
    var isEmpty: Bool { members.isEmpty }

    /// Whether the key of `member` equals `name` (compared as raw UTF-8 bytes).
    func key(of member: Member, is name: [UInt8]) -> Bool {
        guard member.key.count == name.count else { return false }
        var offset = member.key.lowerBound
        for byte in name {
            if bytes[offset] != byte { return false }
            offset += 1
        }
        return true
    }

    /// Whether the key of `member` equals `name`.
    func key(of member: Member, is name: String) -> Bool { key(of: member, is: Array(name.utf8)) }

    /// The member named `name`, if any.
    func member(named name: [UInt8]) -> Member? {
        members.first { key(of: $0, is: name) }
    }

    /// The member named `name`, if any.
    func member(named name: String) -> Member? { member(named: Array(name.utf8)) }

    /// The value of `name` when it is a JSON string, decoded.
    func string(named name: String) -> String? {
        guard let member = member(named: name), member.value.count >= 2,
              bytes[member.value.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let inner = bytes[(member.value.lowerBound + 1)..<(member.value.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        return try? JSONDecoder().decode(String.self, from: Data(bytes[member.value]))
    }

    /// The raw value bytes of `name`, if present.
    func rawValue(named name: [UInt8]) -> ArraySlice<UInt8>? {
        member(named: name).map { bytes[$0.value] }
    }

    /// The raw value bytes of `name`, if present.
    func rawValue(named name: String) -> ArraySlice<UInt8>? { rawValue(named: Array(name.utf8)) }

    private static func scan(_ bytes: [UInt8]) -> [Member] {
        var found: [Member] = []
        var index = 0
        func skipSpace() { while index < bytes.count, JSONScanning.isSpace(bytes[index]) { index += 1 } }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return [] }
        index += 1
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return found }
            let keyEnd = JSONScanning.endOfString(bytes, from: index)
            guard keyEnd <= bytes.count, keyEnd - index >= 2 else { return found }
            let key = (index + 1)..<(keyEnd - 1)
            index = keyEnd
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return found }
            index += 1
            skipSpace()
            let valueStart = index
            index = JSONScanning.endOfValue(bytes, from: valueStart)
            guard index > valueStart else { return found }
            found.append(Member(key: key, value: valueStart..<index))
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return found }
            index += 1
        }
    }
}
