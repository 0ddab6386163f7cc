import CICU
import Foundation

/// CLDR's way of writing a number with its unit in a language, from ICU: "18 км/ч",
/// "−3 °C", "5 م/ث", "%50", with the language's decimal separator and the unit's
/// plural form for that number ("1 mila/h", "5 mili/h"). Never written by hand per
/// language: ICU carries CLDR's unit and percent patterns.
struct MeasureFormat: @unchecked Sendable {
    // ICU's formatter, opened once per language and skeleton and kept for the process:
    // formatting is a const call that ICU documents as safe from any thread.
    private let format: UnsafeRawPointer?
    private let digits: Int

    /// `unit` is the unit's stem in an ICU skeleton ("measure-unit/speed-meter-per-second",
    /// "unit/microgram-per-cubic-meter", "percent"), nil for a bare number; `digits` the decimals shown, rounded half away from zero as `FixedPoint`
    /// rounds. Grouping is off ("1013 hPa"), as weather services write pressure.
    private init(locale: String, unit: String?, digits: Int) {
        let unitPart = switch unit {
        case nil: ""
        case "percent": "percent "
        case let unit?: "\(unit) unit-width-short "
        }
        let precision = digits == 0 ? "precision-integer" : "." + String(repeating: "0", count: digits)
        format = isobar_number_format_open(locale, unitPart + precision + " rounding-mode-half-up group-off sign-negative")
        self.digits = digits
    }

    /// `number` as the page shows it. The minus is U+2212, which screen readers say as
    /// "minus" (CLDR's hyphen-minus in most languages is read as a dash, or not at all),
    /// and a text whose unit is written right to left ("5 م/ث") is isolated as such
    /// (U+2067 … U+2069), so that inside a left-to-right value it still reads number first.
    func string(_ number: Double) -> String {
        guard let text = icu(number, unitOnly: false) else { return FixedPoint.format(number, digits: digits) }
        let signed = text.contains("-") ? text.replacingOccurrences(of: "-", with: "\u{2212}") : text
        return signed.unicodeScalars.contains(where: { isobar_is_right_to_left($0.value) != 0 })
            ? "\u{2067}\(signed)\u{2069}" : signed
    }

    /// The unit alone, as it stands with `number` ("km/h", "°C", "%").
    func unit(_ number: Double) -> String {
        icu(number, unitOnly: true) ?? ""
    }

    private func icu(_ number: Double, unitOnly: Bool) -> String? {
        guard let format else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let length = Int(isobar_number_format(format, number, unitOnly ? 1 : 0, &buffer, Int32(buffer.count)))
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The format for a language (an ICU locale, "he@numbers=latn"), a unit and decimals.
    static func shared(locale: String, unit: String?, digits: Int) -> MeasureFormat {
        let key = "\(locale) \(unit ?? "") \(digits)"
        return lock.withLock {
            if let cached = cache[key] { return cached }
            let made = MeasureFormat(locale: locale, unit: unit, digits: digits)
            cache[key] = made
            return made
        }
    }

    private nonisolated(unsafe) static var cache: [String: MeasureFormat] = [:]
    private static let lock = NSLock()
}
