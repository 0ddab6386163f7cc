import Foundation

/// Formats canonical model values (°C, m/s, m, hPa, mm) in a city's unit system.
public struct UnitFormatter: Sendable {
    public var units: Units
    /// Decimal separators follow the site's language ("4,5 km" in German).
    public var locale: Locale

    public init(units: Units, locale: Locale = Locale(identifier: "en")) {
        self.units = units
        self.locale = locale
    }

    private func decimal(_ value: Double, digits: Int) -> String {
        FixedPoint.format(value, digits: digits, separator: FixedPoint.separator(for: locale))
    }

    public var temperatureSymbol: String {
        switch units {
        case .metric: return "°C"
        case .imperial: return "°F"
        case .standard: return "K"
        }
    }

    public var speedSymbol: String { units == .imperial ? "mph" : "m/s" }
    public var distanceSymbol: String { units == .imperial ? "mi" : "km" }
    public var pressureSymbol: String { units == .imperial ? "inHg" : "hPa" }
    public var precipitationSymbol: String { units == .imperial ? "in" : "mm" }

    // The canonical values in the city's units, before rounding.
    public func speedValue(_ metresPerSecond: Double) -> Double { units == .imperial ? metresPerSecond / 0.44704 : metresPerSecond }
    public func distanceValue(_ metres: Double) -> Double { units == .imperial ? metres / 1609.344 : metres / 1000 }
    public func pressureValue(_ hectopascals: Double) -> Double { units == .imperial ? hectopascals * 0.0295300 : hectopascals }
    public func precipitationValue(_ millimetres: Double) -> Double { units == .imperial ? millimetres / 25.4 : millimetres }

    public func temperatureValue(_ celsius: Double) -> Double {
        switch units {
        case .metric: return celsius
        case .imperial: return celsius * 9 / 5 + 32
        case .standard: return celsius + 273.15
        }
    }

    /// `9°`, `48°`, `282 K`: rounded, with a true minus sign.
    public func temperature(_ celsius: Double) -> String {
        let number = Self.signed(temperatureValue(celsius))
        return units == .standard ? "\(number) K" : "\(number)°"
    }

    /// A difference in °C in the city's scale: `3°`, `5°` (°F), `3 K`; unsigned, since
    /// the words around it say warmer or colder.
    public func temperatureChangeValue(_ celsius: Double) -> Double { units == .imperial ? celsius * 9 / 5 : celsius }

    public func temperatureChange(_ celsius: Double) -> String {
        let number = Self.whole(abs(temperatureChangeValue(celsius)))
        return units == .standard ? "\(number) K" : "\(number)°"
    }

    public func temperatureWithUnit(_ celsius: Double) -> String {
        let number = Self.signed(temperatureValue(celsius))
        return units == .standard ? "\(number) K" : "\(number) \(temperatureSymbol)"
    }

    public func speed(_ metresPerSecond: Double) -> String {
        "\(Self.whole(speedValue(metresPerSecond))) \(speedSymbol)"
    }

    public func distance(_ metres: Double) -> String {
        let value = distanceValue(metres)
        return value < 10 ? "\(decimal(value, digits: 1)) \(distanceSymbol)" : "\(Self.whole(value)) \(distanceSymbol)"
    }

    public func pressure(_ hectopascals: Double) -> String {
        let value = pressureValue(hectopascals)
        return units == .imperial ? "\(decimal(value, digits: 2)) inHg" : "\(Self.whole(value)) hPa"
    }

    public func precipitation(_ millimetres: Double) -> String {
        let value = precipitationValue(millimetres)
        return units == .imperial ? "\(decimal(value, digits: 2)) in" : "\(decimal(value, digits: 1)) mm"
    }

    public static func percent(_ fraction0to100: Double) -> String {
        "\(whole(fraction0to100)) %"
    }

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
