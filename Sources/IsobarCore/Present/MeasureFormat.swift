import CICU
import Foundation

/// CLDR's way of writing a number with its unit in a language, from ICU: "18 км/ч",
/// "−3 °C", "5 م/ث", "%50", with the language's decimal separator and the unit's
/// plural form for that number ("1 mila/h", "5 mili/h"). Never written by hand per
/// language: ICU carries CLDR's unit and percent patterns.
final class MeasureFormat: @unchecked Sendable {
    // ICU's formatter, opened once per language, unit and precision and kept for the
    // process: formatting is a const call that ICU documents as safe from any thread.
    private let format: UnsafeRawPointer?
    private let digits: Int
    // What each shown value reads as, made once: a site shows the same few hundred
    // values (9°, 6 m/s, 96 %) on every page, and ICU takes over a microsecond each —
    // without this, half the present and render time of a 10,000-city build. Keyed by
    // the value rounded as shown, so the memo is the formatter's own answer, not a copy.
    private let texts = Memo<Int64, String>()
    private let units = Memo<Int64, String>()

    /// `unit` is the unit's stem in an ICU skeleton ("measure-unit/speed-meter-per-second",
    /// "unit/microgram-per-cubic-meter", "percent"), nil for a bare number; `digits` the
    /// decimals shown. Grouping is off ("1013 hPa"), as weather services write pressure.
    init(locale: String, unit: String?, digits: Int) {
        let unitPart = switch unit {
        case nil: ""
        case "percent": "percent "
        case let unit?: "\(unit) unit-width-short "
        }
        let precision = digits == 0 ? "precision-integer" : "." + String(repeating: "0", count: digits)
        format = isobar_number_format_open(locale, unitPart + precision + " group-off")
        self.digits = digits
    }

    /// `number` as the page shows it, rounded half away from zero (`FixedPoint.rounded`).
    /// The minus is U+2212, which screen readers say as "minus" (CLDR's hyphen-minus in
    /// most languages is read as a dash, or not at all), and a text whose unit is written
    /// right to left ("5 م/ث") is isolated as such (U+2067 … U+2069), so that inside a
    /// left-to-right value it still reads number first.
    func string(_ number: Double) -> String {
        guard let shown = FixedPoint.rounded(number, digits: digits) else { return FixedPoint.format(number, digits: digits) }
        return texts.value(shown) { shown in
            guard let text = icu(shown, unitOnly: false) else { return FixedPoint.format(number, digits: digits) }
            let signed = text.contains("-") ? text.replacingOccurrences(of: "-", with: "\u{2212}") : text
            return signed.unicodeScalars.contains(where: { isobar_is_right_to_left($0.value) != 0 })
                ? "\u{2067}\(signed)\u{2069}" : signed
        }
    }

    /// The unit alone, as it stands with `number` ("km/h", "°C", "%").
    func unit(_ number: Double) -> String {
        guard let shown = FixedPoint.rounded(number, digits: digits) else { return "" }
        return units.value(shown) { icu($0, unitOnly: true) ?? "" }
    }

    /// ICU's text for a value rounded as shown (in units of its last decimal).
    private func icu(_ shown: Int64, unitOnly: Bool) -> String? {
        guard let format else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let number = Double(shown) / FixedPoint.scale(digits)
        let length = Int(isobar_number_format(format, number, unitOnly ? 1 : 0, &buffer, Int32(buffer.count)))
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

}

/// The units values are shown in, as ICU's number skeletons name them.
enum MeasureUnit: Int, CaseIterable {
    case celsius, fahrenheit, kelvin, degree, metrePerSecond, milePerHour, kilometre, mile, hectopascal,
         inchOfMercury, millimetre, inch, percent, microgramPerCubicMetre

    var stem: String {
        switch self {
        case .celsius: "measure-unit/temperature-celsius"
        case .fahrenheit: "measure-unit/temperature-fahrenheit"
        case .kelvin: "measure-unit/temperature-kelvin"
        case .degree: "measure-unit/temperature-generic"
        case .metrePerSecond: "measure-unit/speed-meter-per-second"
        case .milePerHour: "measure-unit/speed-mile-per-hour"
        case .kilometre: "measure-unit/length-kilometer"
        case .mile: "measure-unit/length-mile"
        case .hectopascal: "measure-unit/pressure-hectopascal"
        case .inchOfMercury: "measure-unit/pressure-inch-ofhg"
        case .millimetre: "measure-unit/length-millimeter"
        case .inch: "measure-unit/length-inch"
        case .percent: "percent"
        // No CLDR unit of its own: ICU builds it from its parts.
        case .microgramPerCubicMetre: "unit/microgram-per-cubic-meter"
        }
    }
}

/// A language's formats for every unit and for bare numbers, at 0, 1 and 2 decimals, opened
/// together the first time the language is asked for, so that formatting a value looks
/// nothing up (a page formats hundreds).
final class MeasureFormats: Sendable {
    private let formats: [MeasureFormat]

    private init(locale: String) {
        formats = ([nil] + MeasureUnit.allCases.map(\.stem)).flatMap { stem in
            (0...2).map { MeasureFormat(locale: locale, unit: stem, digits: $0) }
        }
    }

    /// `unit`'s format (nil: a bare number) at `digits` decimals (0…2).
    func format(_ unit: MeasureUnit?, digits: Int) -> MeasureFormat {
        formats[((unit?.rawValue ?? -1) + 1) * 3 + max(0, min(2, digits))]
    }

    static func shared(locale: String) -> MeasureFormats {
        all.value(locale) { MeasureFormats(locale: $0) }
    }

    private static let all = Memo<String, MeasureFormats>()
}
