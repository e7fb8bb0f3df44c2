/// The inspector's JSON rule: what it serves can be embedded in a page or an event stream as it is.
///
/// ``safe(_:)`` rewrites `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes, and a raw line break
/// (whitespace between tokens) as a space, so a body never holds `</script>`, an HTML entity,
/// a JavaScript line terminator, or a line break that would end an event stream's `data:` line.
/// In valid JSON those characters occur only inside strings (or, for line breaks, between
/// tokens), where the rewrite keeps the value the same.
enum InspectorJSON {
    /// `json` with the characters above escaped; the value it encodes is unchanged.
    static func safe(_ json: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(json.count + json.count / 16)
        var index = 0
        while index < json.count {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "<"): output.append(contentsOf: escaped("003c"))
            case UInt8(ascii: ">"): output.append(contentsOf: escaped("003e"))
            case UInt8(ascii: "&"): output.append(contentsOf: escaped("0026"))
            case 0x0A, 0x0D: output.append(UInt8(ascii: " "))
            case 0xE2 where index + 2 < json.count && json[index + 1] == 0x80 && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
                output.append(contentsOf: escaped(json[index + 2] == 0xA8 ? "2028" : "2029"))
                index += 2
            default: output.append(byte)
            }
            index += 1
        }
        return output
    }

    /// `\uXXXX` as bytes.
    private static func escaped(_ hex: StaticString) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "u")]
        hex.withUTF8Buffer { bytes.append(contentsOf: $0) }
        return bytes
    }
}
