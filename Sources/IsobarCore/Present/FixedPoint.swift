import Foundation

/// Numbers with a fixed count of decimals, without `String(format:)`, which goes through
/// CoreFoundation's format parser and was an eighth of build time in a profile.
public enum FixedPoint {
    /// `value` rounded half away from zero to `digits` decimals (0…6), with a dot: the
    /// numbers machines read (CSS, SVG, JSON). Visitors' numbers are `UnitFormatter`'s.
    /// `dropsZeroFraction`: a whole number is written without its decimals ("12", not
    /// "12.0"), as SVG coordinates are; not for what `rounded` cannot hold (written by
    /// `String(format:)` with its decimals).
    public static func format(_ value: Double, digits: Int, dropsZeroFraction: Bool = false) -> String {
        withText(value, digits, dropsZeroFraction) { String(decoding: $0, as: UTF8.self) }
    }

    /// `format`'s text appended to `output` as UTF-8, with no `String` made for it (a chart
    /// writes hundreds of numbers).
    static func append(_ value: Double, digits: Int, dropsZeroFraction: Bool = false, to output: inout [UInt8]) {
        withText(value, digits, dropsZeroFraction) { output.append(contentsOf: $0) }
    }

    /// `format`'s text as UTF-8, handed to `body`.
    private static func withText<T>(_ value: Double, _ digits: Int, _ dropsZeroFraction: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        guard let units = rounded(value, digits: digits) else {
            var text = value.isNaN ? "NaN" : value.isInfinite ? (value < 0 ? "-∞" : "∞") : String(format: "%.\(digits)f", value)
            return text.withUTF8(body)
        }
        // Written from the last digit back into a buffer on the stack: joining the whole
        // and the fractional part as strings took four times as long (about 1 % of a build).
        var digits = max(0, min(6, digits)), rest = units.magnitude
        if dropsZeroFraction, rest % UInt64(scale(digits)) == 0 {
            rest /= UInt64(scale(digits))
            digits = 0
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
