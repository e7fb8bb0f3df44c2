@testable import Benchmarks
import Testing

@Suite("Median")
struct MedianTests {
    @Test("the ratio is the median of each sample over the reference beside it, not a ratio of medians")
    func medianOfPairedRatios() {
        // The host halves its speed midway (the last two pairs), and one pair is odd: four
        // pairs say 5. The medians of each list, 150 over 40, would say 3.75.
        let costs: [UInt64] = [100, 100, 150, 200, 200]
        let references: [UInt64] = [20, 20, 50, 40, 40]
        #expect(Median.ratio(of: costs, over: references) == 5)
        #expect(Median.ratio(of: [300, 100, 200], over: [100, 100, 100]) == 2)
    }

    @Test("a pair with a zero reference is left out; none left gives 0")
    func zeroReferences() {
        #expect(Median.ratio(of: [100, 90], over: [0, 30]) == 3)
        #expect(Median.ratio(of: [100], over: [0]) == 0)
        #expect(Median.ratio(of: [], over: []) == 0)
    }
}
