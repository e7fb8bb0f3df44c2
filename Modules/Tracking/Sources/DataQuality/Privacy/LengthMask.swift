/// Which lengths occur among a set of texts, one bit per length (bit 63: 63 or longer): a text
/// whose length is not in the mask is none of them, which is found without hashing it.
struct LengthMask: Sendable {
    private var bits: UInt64 = 0

    /// The mask of `lengths`.
    init(_ lengths: some Sequence<Int>) {
        for length in lengths { bits |= Self.bit(length) }
    }

    /// Whether a text of `length` may be one of the set.
    func mayContain(length: Int) -> Bool { bits & Self.bit(length) != 0 }

    private static func bit(_ length: Int) -> UInt64 { 1 << UInt64(min(length, 63)) }
}
