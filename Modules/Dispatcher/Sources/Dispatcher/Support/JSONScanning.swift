/// Finding where JSON values end, without parsing them: for the code that edits JSON the project
/// wrote itself (delivery encoders, the shared-context merge). A value cut short ends at the end
/// of the bytes.
enum JSONScanning {
    /// Whether `byte` is JSON whitespace.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The index just past the string starting at `start` (which holds the quote).
    static func endOfString<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, from start: Int) -> Int where Bytes.Index == Int {
        var index = start + 1
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.endIndex
    }

    /// The index just past the value starting at `start`.
    static func endOfValue<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, from start: Int) -> Int where Bytes.Index == Int {
        guard start < bytes.endIndex else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.endIndex {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return bytes.endIndex
        default:
            var index = start
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}"),
                  bytes[index] != UInt8(ascii: "]"), !isSpace(bytes[index]) {
                index += 1
            }
            return index
        }
    }
}
