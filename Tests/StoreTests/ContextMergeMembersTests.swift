@testable import Dispatcher
import Testing

/// `ContextMerge.members` finds an object's members in JSON the project wrote, and refuses
/// anything that is not one whole object.
@Suite struct ContextMergeMembersTests {
    private func members(_ text: String) -> [(key: String, value: String)]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            ContextMerge.members(buffer)?.map { member in
                (String(decoding: bytes[member.key], as: UTF8.self), String(decoding: bytes[member.value], as: UTF8.self))
            }
        }
    }

    @Test func anObjectsMembersAreFound() throws {
        let found = try #require(members(#" { "a" : 1, "b":{"c":[1,"x}"]}, "d\"e":"}" ,"f":null} "#))
        #expect(found.map(\.key) == [#""a""#, #""b""#, #""d\"e""#, #""f""#])
        #expect(found.map(\.value) == ["1", #"{"c":[1,"x}"]}"#, #""}""#, "null"])
        #expect(try #require(members("{}")).isEmpty)
    }

    @Test func anythingButOneWholeObjectIsRefused() {
        for text in ["", "[1]", "1", #"{"a""#, #"{"a":}"#, #"{"a":1"#, #"{"a":{"b":1}"#, #"{"a":"x"#, #"{"a" 1}"#,
                     #"{"a":1 "b":2}"#, #"{a:1}"#, #"{"a":1,}"#] {
            #expect(members(text) == nil, "\(text)")
        }
    }
}
