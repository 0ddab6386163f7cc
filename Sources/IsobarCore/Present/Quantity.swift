/// A measured value as a theme may want it: formatted for reading (`{{now.pressure}}`
/// prints "1013 hPa"), and as a plain number in the city's units with its unit symbol
/// for drawing (`{{now.pressure.value}}` is "1013.2", `{{now.pressure.unit}}` "hPa"),
/// so a theme can size a bar or plot a trend without Swift.
///
/// It keeps the canonical number and formats only when a template asks: a page model
/// holds some 700 quantities and a theme shows a fraction of them, and formatting them
/// all up front was a third more CPU per build (README, "Performance").
public struct Quantity: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case temperature(withUnit: Bool)
        /// A difference of temperatures (no offset between °C and °F, only the scale).
        case temperatureChange
        case speed, distance, pressure, precipitation, percent, uvIndex
        /// µg/m³, of a pollutant.
        case concentration
    }

    /// In canonical units (°C, m/s, m, hPa, mm, 0…100 %).
    let number: Double
    let kind: Kind
    let format: UnitFormatter

    init(_ number: Double, _ kind: Kind, _ format: UnitFormatter) {
        self.number = number
        self.kind = kind
        self.format = format
    }

    /// Formatted in the site's language and the city's units, as pages show it.
    public var text: String { format.text(kind, number) }

    /// The number in the city's units, with a dot as decimal separator whatever the
    /// language (CSS and SVG read it).
    public var value: String {
        let imperial = format.units == .imperial
        let digits = switch kind {
        case .temperature, .temperatureChange, .speed, .concentration, .uvIndex: 1
        case .distance: 2
        case .pressure, .precipitation: imperial ? 2 : 1
        case .percent: 0
        }
        return FixedPoint.format(format.value(kind, number), digits: digits)
    }

    /// The unit symbol of `value` in the site's language: `°C`, `m/s`, `км/ч`, `%`;
    /// empty for the UV index.
    public var unit: String { format.symbol(kind, number) }

    /// Equal when a page would show the same: text, value and unit.
    public static func == (left: Quantity, right: Quantity) -> Bool {
        left.text == right.text && left.value == right.value && left.unit == right.unit
    }
}
