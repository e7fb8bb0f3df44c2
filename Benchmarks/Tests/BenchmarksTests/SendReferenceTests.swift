@testable import Benchmarks
import Testing
import Tracking

@Suite("SendReference")
struct SendReferenceTests {
    @Test("the ratio is the median of each send over the reference beside it, not a ratio of medians")
    func medianOfPairedRatios() {
        // The host halves its speed midway (the last two pairs), and one pair is odd: four
        // pairs say 5. The medians of each list, 150 over 40, would say 3.75.
        let costs: [UInt64] = [100, 100, 150, 200, 200]
        let references: [UInt64] = [20, 20, 50, 40, 40]
        #expect(SendReference.medianRatio(of: costs, over: references) == 5)
        #expect(SendReference.medianRatio(of: [300, 100, 200], over: [100, 100, 100]) == 2)
    }

    @Test("a pair with a zero reference is left out; none left gives 0")
    func zeroReferences() {
        #expect(SendReference.medianRatio(of: [100, 90], over: [0, 30]) == 3)
        #expect(SendReference.medianRatio(of: [100], over: [0]) == 0)
        #expect(SendReference.medianRatio(of: [], over: []) == 0)
    }

    @Test("the reference does its work: what it folds changes with the userData")
    func referenceWorks() {
        var first = SendReference()
        first.run(["sku": "a", "quantity": 1])
        var second = SendReference()
        second.run(["sku": "b", "quantity": 1])
        #expect(first.sink != second.sink)
    }
}
