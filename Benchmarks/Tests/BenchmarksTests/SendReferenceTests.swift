@testable import Benchmarks
import Testing
import Tracking

@Suite("SendReference")
struct SendReferenceTests {
    @Test("the reference does its work: what it folds changes with the userData")
    func referenceWorks() {
        var first = SendReference()
        first.run(["sku": "a", "quantity": 1])
        var second = SendReference()
        second.run(["sku": "b", "quantity": 1])
        #expect(first.sink != second.sink)
    }
}
