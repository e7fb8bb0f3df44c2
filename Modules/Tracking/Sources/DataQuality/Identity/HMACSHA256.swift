/// HMAC-SHA256 (RFC 2104) over ``SHA256Digest``: the keyed hash of redacted values.
enum HMACSHA256 {
    /// SHA-256's block size in bytes.
    private static let blockSize = 64

    /// The 32-byte authentication code of `message` under `key`.
    static func code(key: [UInt8], message: some Sequence<UInt8>) -> [UInt8] {
        var block = key.count > blockSize ? SHA256Digest.digest(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256Digest.digest(block.map { $0 ^ 0x36 } + Array(message))
        return SHA256Digest.digest(block.map { $0 ^ 0x5c } + inner)
    }
}
