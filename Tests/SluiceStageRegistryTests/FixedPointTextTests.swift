import Foundation
import Testing
import SluiceStageRegistry

@Suite("Fixed-point text")
struct FixedPointTextTests {
    @Test("writes what Foundation's formatted(.number.precision(.fractionLength(n)).grouping(.never)) writes", arguments: [0, 1, 2, 3])
    func sameAsFoundation(fractionDigits: Int) {
        // Every thousandth from 0 to 20, halves included, then larger and negative values.
        let values = (0...20_000).map { Double($0) / 1000 } + [0.05, 0.15, 0.25, 0.35, 2.5, 3.5, 9.995, 99.95, 999.95, 0.0000123, 1e6 + 0.125, 123_456_789.987, -0.04, -1.25, -7.777, -0.0]
        for value in values {
            let expected = value.formatted(.number.precision(.fractionLength(fractionDigits)).grouping(.never))
            #expect(FixedPointText.string(value, fractionDigits: fractionDigits) == expected, "\(value)")
        }
    }
}
