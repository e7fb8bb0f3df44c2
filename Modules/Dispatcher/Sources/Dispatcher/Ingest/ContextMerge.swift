import Foundation

/// Merges two JSON objects as ``Tracking/SharedContext/merge(_:_:)`` merges their values,
/// without decoding them: a member of `own` replaces the one of `shared` with the same key,
/// except when both are objects, whose members are merged the same way one level deep.
///
/// Both inputs are compact JSON objects as the core's writer produces them (keys escaped the
/// same way, so equal keys have equal bytes); whitespace is tolerated. Anything that does not
/// parse as an object is treated as empty.
enum ContextMerge {
    /// `shared` with `own` on top.
    static func merge(shared: [UInt8], own: [UInt8]) -> [UInt8] {
        shared.withUnsafeBufferPointer { base in
            own.withUnsafeBufferPointer { top in merge(base, top, deep: true) ?? (top.count > 2 ? own : shared) }
        }
    }

    /// The merged object, or `nil` when either side is empty or not an object.
    private static func merge(_ base: UnsafeBufferPointer<UInt8>, _ top: UnsafeBufferPointer<UInt8>, deep: Bool) -> [UInt8]? {
        guard let baseMembers = members(base), let topMembers = members(top) else { return nil }
        if topMembers.isEmpty { return Array(base) }
        if baseMembers.isEmpty { return Array(top) }
        var output: [UInt8] = []
        output.reserveCapacity(base.count + top.count)
        output.append(UInt8(ascii: "{"))
        var used = [Bool](repeating: false, count: topMembers.count)
        func append(key: Range<Int>, in buffer: UnsafeBufferPointer<UInt8>) {
            if output.count > 1 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[key]))
            output.append(UInt8(ascii: ":"))
        }
        for member in baseMembers {
            let key = UnsafeBufferPointer(rebasing: base[member.key])
            guard let index = topMembers.firstIndex(where: { UnsafeBufferPointer(rebasing: top[$0.key]).elementsEqual(key) }) else {
                append(key: member.key, in: base)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: base[member.value]))
                continue
            }
            used[index] = true
            let replacement = topMembers[index].value
            append(key: member.key, in: base)
            // `merge` is nil unless both values are objects.
            if deep, let nested = merge(UnsafeBufferPointer(rebasing: base[member.value]), UnsafeBufferPointer(rebasing: top[replacement]), deep: false) {
                output.append(contentsOf: nested)
            } else {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: top[replacement]))
            }
        }
        for (index, member) in topMembers.enumerated() where !used[index] {
            append(key: member.key, in: top)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: top[member.value]))
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// The byte ranges of an object's keys (quotes included) and values, or `nil` when `json` is
    /// not a whole object.
    static func members(_ json: UnsafeBufferPointer<UInt8>) -> [(key: Range<Int>, value: Range<Int>)]? {
        var index = skipSpace(json, 0)
        guard index < json.count, json[index] == UInt8(ascii: "{") else { return nil }
        index = skipSpace(json, index + 1)
        var result: [(key: Range<Int>, value: Range<Int>)] = []
        if index < json.count, json[index] == UInt8(ascii: "}") { return result }
        while index < json.count {
            guard json[index] == UInt8(ascii: "\"") else { return nil }
            let keyEnd = JSONScanning.endOfString(json, from: index)
            let key = index..<keyEnd
            index = skipSpace(json, keyEnd)
            guard index < json.count, json[index] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipSpace(json, index + 1)
            let valueEnd = JSONScanning.endOfValue(json, from: valueStart)
            // No value (a stray `}` or `]`, or nothing left).
            guard valueEnd > valueStart else { return nil }
            result.append((key, valueStart..<valueEnd))
            // A value cut short ends at the end of the bytes: then no `}` follows.
            index = skipSpace(json, valueEnd)
            guard index < json.count else { return nil }
            if json[index] == UInt8(ascii: "}") { return result }
            guard json[index] == UInt8(ascii: ",") else { return nil }
            index = skipSpace(json, index + 1)
        }
        return nil
    }

    private static func skipSpace(_ json: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var index = start
        while index < json.count, JSONScanning.isSpace(json[index]) { index += 1 }
        return index
    }
}
