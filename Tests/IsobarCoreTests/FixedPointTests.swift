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

    @Test func trailingZerosMayBeLeftOut() {
        #expect(FixedPoint.format(12.04, digits: 1, trimmingZeros: true) == "12")
        #expect(FixedPoint.format(12.05, digits: 1, trimmingZeros: true) == "12.1")
        #expect(FixedPoint.format(-0.04, digits: 1, trimmingZeros: true) == "0")
        #expect(FixedPoint.format(-3.999, digits: 2, trimmingZeros: true) == "-4")
        #expect(FixedPoint.format(100, digits: 3, trimmingZeros: true) == "100")
        #expect(FixedPoint.format(12.5, digits: 2, trimmingZeros: true) == "12.5")
        #expect(FixedPoint.format(-0.1, digits: 3, trimmingZeros: true) == "-0.1")
        #expect(FixedPoint.format(0.05, digits: 2, trimmingZeros: true) == "0.05")
    }

    /// Numbers already in units of their last decimal, as JSON's hundredths and counts are.
    @Test(arguments: [
        (Int64(0), 0, false, "0"), (1234, 2, true, "12.34"), (1230, 2, true, "12.3"), (1200, 2, true, "12"),
        (-5, 2, true, "-0.05"), (-500, 2, true, "-5"), (1200, 2, false, "12.00"), (Int64.max, 0, false, "9223372036854775807"),
        (Int64.min, 0, false, "-9223372036854775808"),
    ] as [(Int64, Int, Bool, String)])
    func writesUnits(units: Int64, digits: Int, trimmingZeros: Bool, expected: String) {
        var output: [UInt8] = []
        FixedPoint.append(units: units, digits: digits, trimmingZeros: trimmingZeros, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test func writesWhatItCannotRoundAsText() {
        #expect(FixedPoint.format(.nan, digits: 1) == "NaN")
        #expect(FixedPoint.format(-.infinity, digits: 1) == "-∞")
        #expect(FixedPoint.format(1e20, digits: 1) == "100000000000000000000.0")
    }
}
