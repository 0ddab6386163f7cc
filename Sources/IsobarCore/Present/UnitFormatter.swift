import Foundation

/// Formats canonical model values (°C, m/s, m, hPa, mm) in a city's unit system, written
/// as CLDR writes them in the site's language ("18 km/h", "5 м/с", "−3 °C", "%50").
///
/// A class, though nothing in it changes: every `Quantity` carries one (a page holds some
/// 700), and as a struct its locale and formats made each copy two retains and a
/// `Quantity` too large for a template value's inline storage, so each one a template
/// read was boxed on the heap (1.7 % of a build's instructions).
public final class UnitFormatter: Sendable {
    public let units: Units
    /// The language's number and unit formats (an ICU locale, "de@numbers=latn").
    public let locale: Locale
    private let formats: MeasureFormats

    public init(units: Units, locale: Locale = Locale(identifier: "en")) {
        self.units = units
        self.locale = locale
        formats = MeasureFormats.shared(locale: locale.identifier)
    }

    /// The unit a kind of value is shown in, in this unit system (nil: a bare number), and
    /// the decimals it is shown with, given its value in those units.
    private func display(_ kind: Quantity.Kind, _ value: Double) -> (unit: MeasureUnit?, digits: Int) {
        let imperial = units == .imperial
        return switch kind {
        case .temperature(withUnit: true): (units == .metric ? .celsius : imperial ? .fahrenheit : .kelvin, 0)
        // A bare degree ("9°") where the scale goes without saying; kelvins keep their "K".
        case .temperature(withUnit: false), .temperatureChange: (units == .standard ? .kelvin : .degree, 0)
        case .speed: (imperial ? .milePerHour : .metrePerSecond, 0)
        // Tenths below 10 ("6.0 km"), whole above.
        case .distance: (imperial ? .mile : .kilometre, value < 10 ? 1 : 0)
        case .pressure: (imperial ? .inchOfMercury : .hectopascal, imperial ? 2 : 0)
        case .precipitation: (imperial ? .inch : .millimetre, imperial ? 2 : 1)
        case .percent: (.percent, 0)
        case .concentration: (.microgramPerCubicMetre, 1)
        case .uvIndex: (nil, 0)
        }
    }

    /// `number` (canonical) in the city's units, before rounding.
    func value(_ kind: Quantity.Kind, _ number: Double) -> Double {
        switch kind {
        case .temperature: temperatureValue(number)
        case .temperatureChange: units == .imperial ? number * 9 / 5 : number
        case .speed: units == .imperial ? number / 0.44704 : number
        case .distance: units == .imperial ? number / 1609.344 : number / 1000
        case .pressure: units == .imperial ? number * 0.0295300 : number
        case .precipitation: units == .imperial ? number / 25.4 : number
        case .percent, .concentration, .uvIndex: number
        }
    }

    /// `number` (canonical) as a page shows it: "18 km/h", "18 км/ч", "−3°", "%50". A
    /// trace of rain that would round to nothing is "< 0.1 mm" ("< 0.01 in"): some fell.
    func text(_ kind: Quantity.Kind, _ number: Double) -> String {
        // A difference is unsigned: the words around it say warmer or colder.
        let value = kind == .temperatureChange ? abs(value(kind, number)) : value(kind, number)
        let display = display(kind, value)
        let format = formats.format(display.unit, digits: display.digits)
        if kind == .precipitation, value > 0 {
            let step = pow(10, -Double(display.digits))
            if value < step / 2 { return "< " + format.string(step) }
        }
        return format.string(value)
    }

    /// The unit alone as it stands with `number` (plural forms differ: "1 mila/h",
    /// "5 mili/h"): "km/h", "°C", "%"; empty for the UV index.
    func symbol(_ kind: Quantity.Kind, _ number: Double) -> String {
        let value = value(kind, number)
        let display = display(kind, value)
        guard let unit = display.unit else { return "" }
        return formats.format(unit, digits: display.digits).unit(value)
    }

    public func temperatureValue(_ celsius: Double) -> Double {
        switch units {
        case .metric: return celsius
        case .imperial: return celsius * 9 / 5 + 32
        case .standard: return celsius + 273.15
        }
    }

    /// The temperature scale's symbol, for a column heading: "°C", "°F", "°م" (Arabic),
    /// "st. C" (Polish).
    public var temperatureSymbol: String { symbol(.temperature(withUnit: true), 10) }

    /// `9°`, `48°`, `282 K`: rounded, with a true minus sign.
    public func temperature(_ celsius: Double) -> String { text(.temperature(withUnit: false), celsius) }
    /// `9°C`, `9 °C` (German), `−3°م` (Arabic): with the scale.
    public func temperatureWithUnit(_ celsius: Double) -> String { text(.temperature(withUnit: true), celsius) }
    /// A difference of temperatures in the city's scale, unsigned: `3°`, `5°` (°F), `3 K`.
    public func temperatureChange(_ celsius: Double) -> String { text(.temperatureChange, celsius) }
    public func speed(_ metresPerSecond: Double) -> String { text(.speed, metresPerSecond) }
    public func distance(_ metres: Double) -> String { text(.distance, metres) }
    public func pressure(_ hectopascals: Double) -> String { text(.pressure, hectopascals) }
    public func precipitation(_ millimetres: Double) -> String { text(.precipitation, millimetres) }
    /// `50%`, `50 %` (French), `%50` (Turkish).
    public func percent(_ fraction0to100: Double) -> String { text(.percent, fraction0to100) }
    /// A pollutant's concentration: `11.9 μg/m³`, `11,9 мкг/м³`.
    public func concentration(_ microgramsPerCubicMetre: Double) -> String { text(.concentration, microgramsPerCubicMetre) }

    // MARK: Quantities: the number kept, formatted when a template asks (Quantity).

    public func quantity(temperature celsius: Double, withUnit: Bool = false) -> Quantity {
        Quantity(celsius, .temperature(withUnit: withUnit), self)
    }

    public func quantity(temperatureChange celsius: Double) -> Quantity { Quantity(celsius, .temperatureChange, self) }
    public func quantity(speed metresPerSecond: Double) -> Quantity { Quantity(metresPerSecond, .speed, self) }
    public func quantity(distance metres: Double) -> Quantity { Quantity(metres, .distance, self) }
    public func quantity(pressure hectopascals: Double) -> Quantity { Quantity(hectopascals, .pressure, self) }
    public func quantity(precipitation millimetres: Double) -> Quantity { Quantity(millimetres, .precipitation, self) }
    /// Humidity, cloud cover, a chance of rain: 0…100.
    public func quantity(percent value: Double) -> Quantity { Quantity(value, .percent, self) }
    /// The UV index has no unit: shown whole, given to a tenth.
    public func quantity(uvIndex value: Double) -> Quantity { Quantity(value, .uvIndex, self) }

    /// A declared forecast value (`ForecastField`) as a page shows it, by what it measures:
    /// the one rule for every measured field. A chance (0…1) is shown as a percentage; a
    /// direction and a moon phase are no quantity (the wind's compass point, the phase in
    /// words): nil.
    func quantity(_ measure: Measure, _ value: Double) -> Quantity? {
        switch measure {
        case .temperature: quantity(temperature: value)
        case .speed: quantity(speed: value)
        case .pressure: quantity(pressure: value)
        case .percent: quantity(percent: value)
        case .probability: quantity(percent: value * 100)
        case .precipitation: quantity(precipitation: value)
        case .distance: quantity(distance: value)
        case .uvIndex: quantity(uvIndex: value)
        case .direction, .moonPhase: nil
        }
    }

    /// Rounded half away from zero, as a whole number. `Int(x.rounded())` would trap on a
    /// value no Int holds; values are range-checked when decoded, and this stays total anyway.
    static func whole(_ value: Double) -> String {
        FixedPoint.format(value, digits: 0)
    }

    /// `whole` with a true minus sign (U+2212), as temperatures are shown.
    static func signed(_ value: Double) -> String {
        let text = whole(value)
        return text.hasPrefix("-") ? "\u{2212}" + text.dropFirst() : text
    }
}
