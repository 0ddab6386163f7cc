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

    public func temperatureWithUnit(_ celsius: Double) -> String {
        let number = Self.signed(temperatureValue(celsius))
        return units == .standard ? "\(number) K" : "\(number) \(temperatureSymbol)"
    }

    public func speed(_ metresPerSecond: Double) -> String {
        let value = units == .imperial ? metresPerSecond / 0.44704 : metresPerSecond
        return "\(Self.whole(value)) \(speedSymbol)"
    }

    public func distance(_ metres: Double) -> String {
        let value = units == .imperial ? metres / 1609.344 : metres / 1000
        return value < 10 ? "\(decimal(value, digits: 1)) \(distanceSymbol)" : "\(Self.whole(value)) \(distanceSymbol)"
    }

    public func pressure(_ hectopascals: Double) -> String {
        units == .imperial
            ? "\(decimal(hectopascals * 0.0295300, digits: 2)) inHg"
            : "\(Self.whole(hectopascals)) hPa"
    }

    public func precipitation(_ millimetres: Double) -> String {
        units == .imperial ? "\(decimal(millimetres / 25.4, digits: 2)) in" : "\(decimal(millimetres, digits: 1)) mm"
    }

    public static func percent(_ fraction0to100: Double) -> String {
        "\(whole(fraction0to100)) %"
    }

    // MARK: Quantities: the formatted text above, and the number behind it for themes.

    /// `9°` (or `9 °C` `withUnit`), and the value to a tenth of a degree.
    public func quantity(temperature celsius: Double, withUnit: Bool = false) -> Quantity {
        Quantity(text: withUnit ? temperatureWithUnit(celsius) : temperature(celsius),
                 temperatureValue(celsius), digits: 1, unit: temperatureSymbol)
    }

    public func quantity(speed metresPerSecond: Double) -> Quantity {
        Quantity(text: speed(metresPerSecond), units == .imperial ? metresPerSecond / 0.44704 : metresPerSecond,
                 digits: 1, unit: speedSymbol)
    }

    public func quantity(distance metres: Double) -> Quantity {
        Quantity(text: distance(metres), units == .imperial ? metres / 1609.344 : metres / 1000, digits: 2, unit: distanceSymbol)
    }

    public func quantity(pressure hectopascals: Double) -> Quantity {
        units == .imperial
            ? Quantity(text: pressure(hectopascals), hectopascals * 0.0295300, digits: 2, unit: "inHg")
            : Quantity(text: pressure(hectopascals), hectopascals, digits: 1, unit: "hPa")
    }

    public func quantity(precipitation millimetres: Double) -> Quantity {
        units == .imperial
            ? Quantity(text: precipitation(millimetres), millimetres / 25.4, digits: 2, unit: "in")
            : Quantity(text: precipitation(millimetres), millimetres, digits: 1, unit: "mm")
    }

    /// Humidity, cloud cover, a chance of rain: 0…100.
    public static func quantity(percent value: Double) -> Quantity {
        Quantity(text: percent(value), value, digits: 0, unit: "%")
    }

    /// The UV index has no unit: shown whole, given to a tenth.
    public static func quantity(uvIndex value: Double) -> Quantity {
        Quantity(text: whole(value), value, digits: 1, unit: "")
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
