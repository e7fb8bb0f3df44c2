import Foundation
import Testing
@testable import Dispatcher
import TestSupport
import Tracking

/// The Dispatcher's byte writer cuts anything nested deeper than `UserDataValue.maximumDepth`.
@Suite("JSON writer depth limit")
struct JSONWriterDepthTests {
    @Test("The writer cuts any value it is given at the limit and says so", arguments: DeepValue.Kind.allCases)
    func theWriterIsDepthSafe(kind: DeepValue.Kind) throws {
        var writer = JSONWriter()
        writer.value(DeepValue.make(kind, depth: 10_000))
        #expect(writer.truncated)
        let cut = DeepValue.chain(try JSONSerialization.jsonObject(with: Data(writer.bytes), options: [.fragmentsAllowed]))
        #expect(cut.containers == DeepValue.limit && cut.bottom as? String == DeepValue.placeholder)

        // Each value starts at level 1 again; 32 levels fit.
        var again = JSONWriter()
        again.raw("[")
        again.value(DeepValue.make(kind, depth: 32))
        again.raw(",")
        again.value(DeepValue.make(kind, depth: 32))
        again.raw("]")
        #expect(!again.truncated)
        let pair = try #require(try JSONSerialization.jsonObject(with: Data(again.bytes)) as? [Any])
        #expect(pair.count == 2)
        for element in pair {
            let kept = DeepValue.chain(element)
            #expect(kept.containers == 32 && kept.bottom as? String == "bottom")
        }
    }
}
