import Testing
@testable import IsobarCore

/// The numbers machines read (CSS, SVG, JSON): a dot, a fixed count of decimals, rounded
/// half away from zero.
@Suite struct FixedPointTests {
    @Test(arguments: [
        (0.0, 0, "0"), (0.0, 2, "0.00"), (7, 0, "7"), (123.456, 0, "123"), (123.456, 1, "123.5"),
        (0.05, 2, "0.05"), (0.005, 2, "0.01"), (1.999, 2, "2.00"), (10, 1, "10.0"), (0.000_001, 6, "0.000001"),
        (-2.45, 1, "-2.5"), (-0.04, 1, "0.0"), (-0.06, 1, "-0.1"), (-1_234_567.891, 3, "-1234567.891"),
        (2.5, 0, "3"), (-2.5, 0, "-3"), (8_999_999_999_999_999, 0, "8999999999999999"),
    ] as [(Double, Int, String)])
    func formats(value: Double, digits: Int, expected: String) {
        #expect(FixedPoint.format(value, digits: digits) == expected)
    }

    @Test func aWholeNumberMayDropItsDecimals() {
        #expect(FixedPoint.format(12.04, digits: 1, dropsZeroFraction: true) == "12")
        #expect(FixedPoint.format(12.05, digits: 1, dropsZeroFraction: true) == "12.1")
        #expect(FixedPoint.format(-0.04, digits: 1, dropsZeroFraction: true) == "0")
        #expect(FixedPoint.format(-3.999, digits: 2, dropsZeroFraction: true) == "-4")
        #expect(FixedPoint.format(100, digits: 3, dropsZeroFraction: true) == "100")
    }

    @Test func writesWhatItCannotRoundAsText() {
        #expect(FixedPoint.format(.nan, digits: 1) == "NaN")
        #expect(FixedPoint.format(-.infinity, digits: 1) == "-∞")
        #expect(FixedPoint.format(1e20, digits: 1) == "100000000000000000000.0")
    }
}
