import Foundation
import Tracking

/// A fast hash of an event's content (category, name, action, userData) that allocates nothing,
/// in two independent 64-bit lanes: equal contents hash equal (object members in any order,
/// `0.0` and `-0.0` alike, text by its UTF-8 bytes), so a duplicate detector can file contents
/// under the first lane and tell them apart by both (``ContentFingerprint``).
struct ContentHash {
    private var state: UInt64
    /// The second lane: the same words, another seed and multiplier.
    private var other: UInt64

    private init(seed: UInt64) {
        state = seed
        other = seed ^ 0xA409_3822_299F_31D0
    }

    /// The 64-bit hash of one event's content: the fingerprint's first lane.
    static func of(category: String, name: String, action: String, userData: UserData) -> UInt64 {
        fingerprint(category: category, name: name, action: action, userData: userData).low
    }

    /// The 128-bit fingerprint of one event's content.
    static func fingerprint(category: String, name: String, action: String, userData: UserData) -> ContentFingerprint {
        var hash = ContentHash(seed: 0x243F_6A88_85A3_08D3)
        hash.combine(text: category)
        hash.combine(text: name)
        hash.combine(text: action)
        hash.combine(object: userData)
        return ContentFingerprint(low: hash.state, high: hash.other)
    }

    /// The 128-bit fingerprint of one event's content whose userData has `count` members with
    /// ``member(key:)`` lane sums `memberSums` (taken by an earlier walk, ``Tracking/UserDataDigest``):
    /// equal to ``fingerprint(category:name:action:userData:)`` of that userData.
    static func fingerprint(category: String, name: String, action: String, count: Int,
                            memberSums: (low: UInt64, high: UInt64)) -> ContentFingerprint {
        var hash = ContentHash(seed: 0x243F_6A88_85A3_08D3)
        hash.combine(text: category)
        hash.combine(text: name)
        hash.combine(text: action)
        hash.combine(count: count, memberSums: memberSums)
        return ContentFingerprint(low: hash.state, high: hash.other)
    }

    /// The hash of one text alone: the first lane of ``member(key:)``, so that a table of keys
    /// (``StringTable``) finds a userData key by the hash a fingerprint's walk takes anyway.
    static func of(_ text: String) -> UInt64 { member(key: text).state }

    /// One object member's hash with its key combined; ``combine(value:)`` then adds its value,
    /// and ``lanes`` is what the object's hash sums.
    static func member(key: String) -> ContentHash {
        var member = ContentHash(seed: 0x1319_8A2E_0370_7344)
        member.combine(text: key)
        return member
    }

    /// The two lanes so far.
    var lanes: (low: UInt64, high: UInt64) { (state, other) }

    private mutating func combine(word: UInt64) {
        combine(word: word, other: word)
    }

    /// Mixes `word` into the first lane and `otherWord` into the second.
    private mutating func combine(word: UInt64, other otherWord: UInt64) {
        let product = (state ^ word).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        state = product.high ^ product.low
        let second = (other ^ otherWord).multipliedFullWidth(by: 0xC2B2_AE3D_27D4_EB4F)
        other = second.high ^ second.low
    }

    private mutating func combine(text: String) {
        let utf8 = text.utf8
        combine(word: UInt64(utf8.count))
        let hashed: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var offset = 0
            while offset + 8 <= count {
                combine(word: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            guard offset < count else { return }
            // The last 1 to 7 bytes, the first of them highest (`tail << 8 | byte` for each).
            var tail: UInt64 = 0
            if count >= 8 {
                // One load of the last 8 bytes, of which the wanted ones are the highest.
                let shift = UInt64(8 &* (8 &- (count &- offset)))
                let last = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                tail = (last >> shift).byteSwapped >> shift
            } else {
                for index in offset..<count { tail = tail << 8 | UInt64(base[index]) }
            }
            combine(word: tail)
        }
        if hashed == nil {
            // Text without contiguous UTF-8 (bridged): byte by byte.
            for byte in utf8 { combine(word: UInt64(byte)) }
        }
    }

    /// Mixes in `value`, as an object member's or an array element's.
    mutating func combine(value: UserDataValue) {
        switch value {
        case .string(let text):
            combine(word: 1)
            combine(text: text)
        case .int(let number):
            combine(word: 2)
            combine(word: UInt64(bitPattern: Int64(number)))
        case .double(let number):
            combine(word: 3)
            combine(word: number == 0 ? 0 : number.bitPattern)
        case .bool(let flag):
            combine(word: flag ? 5 : 4)
        case .date(let date):
            combine(word: 6)
            let seconds = date.timeIntervalSinceReferenceDate
            combine(word: seconds == 0 ? 0 : seconds.bitPattern)
        case .array(let elements):
            combine(word: 7)
            combine(word: UInt64(elements.count))
            for element in elements { combine(value: element) }
        case .object(let members):
            combine(word: 8)
            combine(object: members)
        case .null:
            combine(word: 9)
        }
    }

    /// Members hashed each on their own and summed: the order they are stored in does not matter.
    private mutating func combine(object members: UserData) {
        var sums: (low: UInt64, high: UInt64) = (0, 0)
        for (key, value) in members {
            var member = Self.member(key: key)
            member.combine(value: value)
            sums.low &+= member.state
            sums.high &+= member.other
        }
        combine(count: members.count, memberSums: sums)
    }

    /// An object of `count` members whose ``member(key:)`` lanes sum to `memberSums`.
    private mutating func combine(count: Int, memberSums: (low: UInt64, high: UInt64)) {
        combine(word: UInt64(count))
        combine(word: memberSums.low, other: memberSums.high)
    }
}
