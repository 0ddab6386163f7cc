/// A measured value as a theme may want it: formatted for reading (`{{now.pressure}}`
/// prints "1013 hPa"), and as a plain number in the city's units with its unit symbol
/// for drawing (`{{now.pressure.value}}` is "1013.2", `{{now.pressure.unit}}` "hPa"),
/// so a theme can size a bar or plot a trend without Swift.
public struct Quantity: Sendable, Equatable {
    /// Formatted in the site's language and the city's units, as pages show it.
    public var text: String
    /// The number in the city's units, with a dot as decimal separator whatever the
    /// language (CSS and SVG read it).
    public var value: String
    /// The unit symbol of `value`: `°C`, `m/s`, `hPa`, `%`; empty for the UV index.
    public var unit: String

    public init(text: String, value: String, unit: String) {
        self.text = text
        self.value = value
        self.unit = unit
    }

    init(text: String, _ number: Double, digits: Int, unit: String) {
        self.init(text: text, value: FixedPoint.format(number, digits: digits), unit: unit)
    }
}
