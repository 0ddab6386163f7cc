import Foundation

/// Arithmetic for the call budget that holds at `Int.min`/`Int.max` instead of trapping:
/// its counts come from a file (`budget.json`) anyone can edit, and a budget that crashes
/// every run is worse than one that counts high.
extension Int {
    /// `self + other`, held within Int's range.
    func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held within Int's range.
    func saturatingSubtract(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }

    /// A count from a computed `Double`, rounded as told and held within Int's range
    /// (`Int(_:)` traps at 2^63, which `Double(Int.max)` already is); NaN is 0.
    init(saturating value: Double, rounding rule: FloatingPointRoundingRule) {
        let rounded = value.rounded(rule)
        if rounded.isNaN {
            self = 0
        } else if rounded >= Double(Int.max) {
            self = .max
        } else if rounded <= Double(Int.min) {
            self = .min
        } else {
            self = Int(rounded)
        }
    }
}
