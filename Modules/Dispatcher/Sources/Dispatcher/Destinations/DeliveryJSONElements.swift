/// The elements of a compact JSON array, found by scanning its bytes once without decoding
/// (the array counterpart of ``DeliveryJSONMembers``).
///
/// The input is trusted to be valid JSON; malformed input yields the elements found before the
/// fault, never a crash.
enum DeliveryJSONElements {
    /// The byte ranges of the elements of the array in `bytes`, in order; empty when `bytes`
    /// does not start (after whitespace) with `[`.
    static func ranges(in bytes: ArraySlice<UInt8>) -> [Range<Int>] {
        let array = Array(bytes)
        var found: [Range<Int>] = []
        var index = 0
        func skipSpace() { while index < array.count, JSONScanning.isSpace(array[index]) { index += 1 } }
        skipSpace()
        guard index < array.count, array[index] == UInt8(ascii: "[") else { return [] }
        index += 1
        while true {
            skipSpace()
            let start = index
            index = JSONScanning.endOfValue(array, from: start)
            guard index > start, array[start] != UInt8(ascii: "]") else { return found }
            found.append((start + bytes.startIndex)..<(index + bytes.startIndex))
            skipSpace()
            guard index < array.count, array[index] == UInt8(ascii: ",") else { return found }
            index += 1
        }
    }
}
