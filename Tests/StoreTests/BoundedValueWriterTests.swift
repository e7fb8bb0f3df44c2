import Foundation
import Testing
import Tracking
@testable import Dispatcher

@Suite("BinaryValueWriter: the one-walk writer into a fixed buffer")
struct BoundedValueWriterTests {
    private static let samples: [UserData] = [
        ["sku": "ü-1", "quantity": .int(-3), "price": 19.99, "gift": false, "tags": ["a", .null]],
        ["n": ["a": .int(Int.max), "b": [true, .date(Date(timeIntervalSince1970: 1)), ["c": "d"]]]],
        ["long": .string(String(repeating: "é", count: 200)), "": .int(0)],
    ]

    /// The bytes the bounded writer makes of `values` with `capacity` bytes, or `nil`; it never
    /// writes at or past the end (the byte there is checked).
    private static func bounded(_ values: UserData, capacity: Int) -> [UInt8]? {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity + 1, alignment: 8)
        defer { buffer.deallocate() }
        (buffer + capacity).storeBytes(of: 0xA5, as: UInt8.self)
        let end = BinaryValueWriter.writeObject(values, at: buffer, end: buffer + capacity)
        #expect((buffer + capacity).load(as: UInt8.self) == 0xA5)
        return end.map { Array(UnsafeRawBufferPointer(start: buffer, count: $0 - buffer)) }
    }

    @Test func writesTheBytesOfTheSizedWriterWhenTheyFit() {
        for values in Self.samples {
            #expect(Self.bounded(values, capacity: 4096) == BinaryValueWriter.object(values).bytes)
        }
    }

    @Test func anyBufferTooSmallGivesNilAndNoWritePastItsEnd() {
        for values in Self.samples {
            let size = BinaryValueWriter.object(values).bytes.count
            for capacity in 0..<size { #expect(Self.bounded(values, capacity: capacity) == nil) }
        }
    }

    @Test func itGivesNilExactlyWhereTheSizedWriterCuts() {
        var array = UserDataValue.int(1)
        var object: UserData = ["leaf": 1]
        for _ in 0..<(UserDataValue.maximumDepth + 2) {
            for values in [["a": array], object] as [UserData] {
                let sized = BinaryValueWriter.object(values)
                #expect(Self.bounded(values, capacity: 4096) == (sized.truncated ? nil : sized.bytes))
            }
            array = .array([array])
            object = ["o": .object(object)]
        }
    }

    @Test func somethingNestedTooDeepGivesNil() {
        var value = UserDataValue.int(1)
        for _ in 0..<(UserDataValue.maximumDepth + 2) { value = .array([value]) }
        #expect(Self.bounded(["deep": value], capacity: 4096) == nil)
        var object: UserData = ["leaf": 1]
        for _ in 0..<(UserDataValue.maximumDepth + 2) { object = ["o": .object(object)] }
        #expect(Self.bounded(object, capacity: 4096) == nil)
    }
}
