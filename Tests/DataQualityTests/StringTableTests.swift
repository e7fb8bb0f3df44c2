import Testing
@testable import DataQuality

@Suite("String table")
struct StringTableTests {
    @Test func findsEveryKeyAndNothingElse() {
        var dictionary: [String: Int] = [:]
        for index in 0..<300 { dictionary["key\(index)"] = index }
        dictionary["a long key of more than sixteen bytes, é included"] = -1
        dictionary[""] = -2
        let table = StringTable(dictionary)
        #expect(table.count == dictionary.count)
        for (key, value) in dictionary { #expect(table[key] == value, "\(key)") }
        for missing in ["key300", "Key1", "key1 ", "a long key of more than sixteen bytes, e included", "x"] {
            #expect(table[missing] == nil, "\(missing)")
        }
    }

    @Test func anEmptyTableFindsNothing() {
        #expect(StringTable([String: Int]())["anything"] == nil)
    }
}
