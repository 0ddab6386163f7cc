import Foundation

/// Numbers with a fixed count of decimals, without `String(format:)`, which goes through
/// CoreFoundation's format parser and was an eighth of build time in a profile.
public enum FixedPoint {
    /// `value` rounded half away from zero to `digits` decimals (0…6), with a dot: the
    /// numbers machines read (CSS, SVG, JSON). Visitors' numbers are `UnitFormatter`'s.
    public static func format(_ value: Double, digits: Int) -> String {
        guard let units = rounded(value, digits: digits) else {
            return value.isNaN ? "NaN" : value.isInfinite ? (value < 0 ? "-∞" : "∞") : String(format: "%.\(digits)f", value)
        }
        let scale = Int64(Self.scale(digits))
        var text = (units < 0 ? "-" : "") + String(abs(units) / scale)
        if digits > 0 {
            let fraction = String(abs(units) % scale)
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    /// `value` rounded half away from zero to `digits` decimals, in units of the last
    /// decimal (2.45 to 1 digit: 25; −0.04: 0); nil for what no Int64 holds. The one
    /// rounding rule of every number a page shows.
    static func rounded(_ value: Double, digits: Int) -> Int64? {
        let scaled = (abs(value) * scale(digits)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return nil }  // also NaN and ∞
        return value < 0 ? -Int64(scaled) : Int64(scaled)
    }

    static func scale(_ digits: Int) -> Double {
        [1.0, 10, 100, 1_000, 10_000, 100_000, 1_000_000][max(0, min(6, digits))]
    }
}
