/// Numbers for ``StrictJSONScanner``: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
extension StrictJSONScanner {
    /// Scans the number starting at `index` (a `-` or a digit) and moves past it.
    mutating func scanNumber() throws {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "I") {
                    throw Failure(offset: start, reason: "NaN and Infinity are not JSON numbers")
                }
                throw Failure(offset: index, reason: "expected a digit after '-'")
            }
        }
        if bytes[index] == UInt8(ascii: "0") {
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if next == UInt8(ascii: "x") || next == UInt8(ascii: "X") {
                throw Failure(offset: start, reason: "hexadecimal numbers are not allowed in JSON")
            }
            if isDigit(next) { throw Failure(offset: start, reason: "a number must not have a leading zero") }
            index += 1
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let point = index
            index += 1
            guard skipDigits() > 0 else { throw Failure(offset: point, reason: "expected a digit after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw Failure(offset: index, reason: "expected a digit in the exponent") }
        }
    }

    /// Moves past the digits at `index`; returns how many there were.
    @discardableResult
    private mutating func skipDigits() -> Int {
        let first = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index - first
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
