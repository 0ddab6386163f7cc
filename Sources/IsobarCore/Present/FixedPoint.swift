import Foundation

/// Numbers with a fixed count of decimals, without `String(format:)`, which goes through
/// CoreFoundation's format parser and was an eighth of build time in a profile.
public enum FixedPoint {
    /// `value` rounded half away from zero to `digits` decimals (0…6), with a dot: the
    /// numbers machines read (CSS, SVG, JSON). Visitors' numbers are `UnitFormatter`'s.
    public static func format(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let scale = [1.0, 10, 100, 1_000, 10_000, 100_000, 1_000_000][max(0, min(6, digits))]
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(format: "%.\(digits)f", value) }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = String(units % Int64(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }
}
