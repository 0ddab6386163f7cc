import Foundation

/// Numbers with a fixed count of decimals, without `String(format:)`, which goes through
/// CoreFoundation's format parser and was an eighth of build time in a profile.
public enum FixedPoint {
    /// `value` rounded half away from zero to `digits` decimals (0…6), with a dot: the
    /// numbers machines read (CSS, SVG, JSON). Visitors' numbers are `UnitFormatter`'s.
    /// `trimmingZeros`: the fraction's trailing zeros are left out, and the dot with them
    /// ("12.5", "12", not "12.50", "12.00"), as SVG coordinates and JSON numbers are written;
    /// not for what `rounded` cannot hold (written by `String(format:)` with its decimals).
    public static func format(_ value: Double, digits: Int, trimmingZeros: Bool = false) -> String {
        withText(value, digits, trimmingZeros) { String(decoding: $0, as: UTF8.self) }
    }

    /// `format`'s text appended to `output` as UTF-8, with no `String` made for it (a chart
    /// writes hundreds of numbers).
    static func append(_ value: Double, digits: Int, trimmingZeros: Bool = false, to output: inout [UInt8]) {
        withText(value, digits, trimmingZeros) { output.append(contentsOf: $0) }
    }

    /// `units` (in units of the last of `digits` decimals: 1234 with 2 is 12.34) appended to
    /// `output` as `format` writes it: for numbers already rounded, and whole ones (`digits`
    /// 0), which need no `Double`.
    static func append(units: Int64, digits: Int, trimmingZeros: Bool = false, to output: inout [UInt8]) {
        withDigits(units, digits, trimmingZeros) { output.append(contentsOf: $0) }
    }

    /// `format`'s text as UTF-8, handed to `body`.
    private static func withText<T>(_ value: Double, _ digits: Int, _ trimmingZeros: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        guard let units = rounded(value, digits: digits) else {
            var text = value.isNaN ? "NaN" : value.isInfinite ? (value < 0 ? "-∞" : "∞") : String(format: "%.\(digits)f", value)
            return text.withUTF8(body)
        }
        return withDigits(units, digits, trimmingZeros, body)
    }

    /// The text of `units` with `digits` decimals, written from the last digit back into a
    /// buffer on the stack: joining the whole and the fractional part as strings took four
    /// times as long (about 1 % of a build), and appending digit by digit to the output
    /// paid an array's checks for each.
    private static func withDigits<T>(_ units: Int64, _ digits: Int, _ trimmingZeros: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        var digits = max(0, min(6, digits)), rest = units.magnitude
        if trimmingZeros {
            while digits > 0, rest % 10 == 0 {
                rest /= 10
                digits -= 1
            }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var at = buffer.count, written = 0
            repeat {
                if written == digits, digits > 0 {
                    at -= 1
                    buffer[at] = UInt8(ascii: ".")
                }
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                written += 1
            } while rest > 0 || written <= digits
            if units < 0 {
                at -= 1
                buffer[at] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(rebasing: buffer[at...]))
        }
    }

    /// `value` rounded half away from zero to `digits` decimals, in units of the last
    /// decimal (2.45 to 1 digit: 25; −0.04: 0); nil from 9e15 units on (where a Double no
    /// longer holds every whole number), and for NaN and ∞. The one rounding rule of every
    /// number a page shows.
    static func rounded(_ value: Double, digits: Int) -> Int64? {
        let scaled = (abs(value) * scale(digits)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return nil }  // also NaN and ∞
        return value < 0 ? -Int64(scaled) : Int64(scaled)
    }

    static func scale(_ digits: Int) -> Double {
        [1.0, 10, 100, 1_000, 10_000, 100_000, 1_000_000][max(0, min(6, digits))]
    }
}
