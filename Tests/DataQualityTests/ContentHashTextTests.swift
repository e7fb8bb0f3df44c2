import Testing
@testable import DataQuality

/// A text's content hash is the same whatever path its bytes take (the 8-byte words, the last
/// word loaded at once or byte by byte): the hash of each length, pinned.
@Suite("ContentHash: a text's last bytes hash as they always did")
struct ContentHashTextTests {
    /// Hashes taken with the byte-by-byte tail, before the last word was loaded at once.
    private static let pinned: [(text: String, hash: UInt64)] = [
        ("a", 15_975_074_322_731_160_273),
        ("sku", 16_013_957_290_480_207_328),
        ("sku-12", 18_275_247_267_429_896_155),
        ("quantity", 711_371_255_066_780_031),
        ("latencyMs", 2_261_312_595_565_550_290),
        ("abcdefghijklmno", 223_628_569_368_584_102),
        ("caf\u{e9} cr\u{e8}me br\u{fb}l\u{e9}e", 12_172_223_932_291_961_166),
        (String(repeating: "x", count: 23), 2_428_630_040_777_772_162),
    ]

    @Test("texts of 1 to 23 bytes, short and long, ASCII and not, hash to their pinned values")
    func textsHashAsPinned() {
        for (text, hash) in Self.pinned {
            #expect(ContentHash.of(text) == hash, "\(text)")
        }
    }

    @Test("a text whose last word is loaded at once differs from one with another last byte")
    func lastByteCounts() {
        #expect(ContentHash.of("latencyMs") != ContentHash.of("latencyMt"))
        #expect(ContentHash.of("abcdefghi") != ContentHash.of("bbcdefghi"))
    }
}
