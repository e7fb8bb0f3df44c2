import Foundation
import TestSupport
import Tracking

/// Generates userData that tries to break encoders and stores: empty, huge, non-finite,
/// deeply nested, and unusual Unicode in keys and values.
struct HostileUserData {
    /// What kind of data an event got.
    enum Kind: String, CaseIterable {
        case empty, huge, nested, nonFinite, unicode, mixed
    }

    /// Strings that have broken JSON writers, terminals and databases.
    static let nastyStrings: [String] = [
        "", " ", "😀", "👩‍👩‍👧‍👦🏳️‍🌈🇯🇵", "مرحبا بالعالم", "שלום", "\u{202E}override\u{202C}", "nul\u{0}inside", "\u{0}",
        "\u{301}", "\u{301}\u{302}\u{303}\u{304}", "e\u{301}", "\"quoted\"", "'single'", "back\\slash\\", "\\u0000",
        "\u{1}\u{2}\u{7}\u{8}\u{B}\u{C}\u{1B}\u{1F}\u{7F}", "line\nbreak\r\ntab\t", "\u{FEFF}bom", "\u{FFFD}\u{FFFF}\u{10FFFF}",
        "</script><script>", "%s%n%x{0}", "𝕳𝖊𝖑𝖑𝖔", "zero\u{200B}width\u{200D}joiner", "Ω≈ç√∫", "田中さん",
        "null", "true", "1e309", "-0", "NaN", "{\"a\":1}", "[", "]", "\u{2028}\u{2029}",
    ]

    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// The next event's data and its kind. Huge data is made on request only (see ``huge(bytes:unit:)``),
    /// so that the run stays fast.
    mutating func next() -> (UserData, Kind) {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<6: return ([:], .empty)
        case 6..<14: return (["nested": nested(depth: 50), "after": "sibling"], .nested)
        case 14..<24: return (nonFinite(), .nonFinite)
        case 24..<55: return (unicode(), .unicode)
        default: return (mixed(), .mixed)
        }
    }

    /// A key: usually nasty, sometimes very long, sometimes one of the Segment property names.
    mutating func key() -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0: return String(repeating: "k🔑\u{301}", count: Int.random(in: 100...500, using: &random))
        case 1: return ["category", "name", "action"].randomElement(using: &random) ?? "name"
        case 2..<8: return Self.nastyStrings.randomElement(using: &random) ?? ""
        default: return scalars(Int.random(in: 1...12, using: &random))
        }
    }

    /// `count` random Unicode scalars from every plane, control characters included.
    mutating func scalars(_ count: Int) -> String {
        var text = String.UnicodeScalarView()
        while text.count < count {
            let value: UInt32 = switch Int.random(in: 0..<6, using: &random) {
            case 0: UInt32.random(in: 0..<0x20, using: &random)
            case 1: UInt32.random(in: 0x20..<0x7F, using: &random)
            case 2: UInt32.random(in: 0x300..<0x370, using: &random)
            case 3: UInt32.random(in: 0x590..<0x700, using: &random)
            case 4: UInt32.random(in: 0x1F300..<0x1FAFF, using: &random)
            default: UInt32.random(in: 0..<0x110000, using: &random)
            }
            if let scalar = Unicode.Scalar(value) { text.append(scalar) }
        }
        return String(text)
    }

    mutating func scalar() -> UserDataValue {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return .string(Self.nastyStrings.randomElement(using: &random) ?? "")
        case 1: return .string(scalars(Int.random(in: 0...40, using: &random)))
        case 2: return .int([Int.min, Int.max, 0, -1, 1 << 53, (1 << 53) + 1].randomElement(using: &random) ?? 0)
        case 3: return .int(Int.random(in: Int.min...Int.max, using: &random))
        case 4: return .double([0.1, -0.0, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 1e-7, 123456.789, 2.0, -1e21].randomElement(using: &random) ?? 0)
        case 5: return .double(Double.random(in: -1e12...1e12, using: &random))
        case 6: return .bool(Bool.random(using: &random))
        case 7: return .null
        case 8: return .date(Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000_000...4_000_000_000_000, using: &random)) / 1000))
        case 9: return .array([])
        case 10: return .object([:])
        default: return .string(scalars(Int.random(in: 100...400, using: &random)))
        }
    }

    mutating func value(depth: Int) -> UserDataValue {
        guard depth > 0, Int.random(in: 0..<4, using: &random) == 0 else { return scalar() }
        if Bool.random(using: &random) {
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth: depth - 1) })
        }
        var object: [String: UserDataValue] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) { object[key()] = value(depth: depth - 1) }
        return .object(object)
    }

    /// Data holding one string of `bytes` UTF-8 bytes made of `unit`, plus one ordinary member.
    mutating func huge(bytes: Int, unit: String) -> UserData {
        ["blob": .string(String(repeating: unit, count: max(1, bytes / max(1, unit.utf8.count)))), key(): scalar()]
    }

    mutating func nested(depth: Int) -> UserDataValue {
        var value: UserDataValue = .string("leaf \(scalars(3))")
        for level in 0..<depth {
            value = level.isMultiple(of: 2) ? .array([value, .int(level)]) : .object([key(): value])
        }
        return value
    }

    mutating func nonFinite() -> UserData {
        [
            "nan": .double(.nan), "infinity": .double(.infinity), "minusInfinity": .double(-.infinity),
            "list": .array([.double(.nan), .double(1.5), .double(-.infinity)]),
            "inside": .object(["deep": .double(.infinity)]), key(): scalar(),
        ]
    }

    mutating func unicode() -> UserData {
        var data: UserData = [:]
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            data[key()] = .string(Self.nastyStrings.randomElement(using: &random) ?? "")
        }
        return data
    }

    mutating func mixed() -> UserData {
        var data: UserData = [:]
        for _ in 0..<Int.random(in: 1...6, using: &random) { data[key()] = value(depth: 3) }
        return data
    }
}
