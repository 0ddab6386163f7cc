/// MET Norway's weather symbols (the `symbol_code` of Locationforecast 2.0; the list is
/// weathericon 2.0's, https://api.met.no/weatherapi/weathericon/2.0/documentation and
/// github.com/metno/weathericons `weather/legend.csv`: 41 symbols, those with a sun or a
/// moon in `_day`, `_night` and `_polartwilight` variants) on the OpenWeather condition
/// scale the theme draws, as `WMOWeatherCode` does for Open-Meteo: icons, "most
/// significant condition" and the rest of the pipeline work unchanged.
///
/// Each symbol's text is the OpenWeather code's (`owm_<code>` in Templates/i18n/, in
/// every language the theme has): those strings say what MET's symbols say more closely
/// than the WMO codes' do (sleet, heavy showers, rain with thunder have no WMO code
/// Open-Meteo sends), so no string is new. Where no OpenWeather code says it either, the
/// closest honest one, which leaves out a detail but says nothing false:
/// - heavysleetshowers → 613 "sleet showers" and heavysleet → 611 "sleet" (no heavy sleet);
/// - lightsleet → 615 "light rain and snow" (what light sleet is; 611 has no "light");
/// - sleet or snow with thunder, light to heavy (showers or not) → 211 "thunderstorm"
///   (OpenWeather's thunderstorms all come with rain or drizzle); its amount still counts
///   as sleet or snow (`precipitation`).
enum MetNorwaySymbol {
    /// What falls, for splitting a step's `precipitation_amount` into rain and snow.
    enum Falling: Sendable { case nothing, rain, sleet, snow }

    struct Entry: Sendable {
        /// The OpenWeather condition code: icon, severity and the `owm_<code>` text.
        var code: Int
        /// The OpenWeather icon without its d/n suffix.
        var icon: String
        var falling: Falling
    }

    /// Symbol (without its variant suffix) → condition. The typing errors
    /// `lightssleetshowersandthunder` and `lightssnowshowersandthunder` are MET's own
    /// spellings (weathericons' README: kept until the next API version).
    static let table: [String: Entry] = [
        "clearsky": Entry(code: 800, icon: "01", falling: .nothing),
        "fair": Entry(code: 801, icon: "02", falling: .nothing),
        "partlycloudy": Entry(code: 802, icon: "03", falling: .nothing),
        "cloudy": Entry(code: 804, icon: "04", falling: .nothing),
        "fog": Entry(code: 741, icon: "50", falling: .nothing),

        "lightrainshowers": Entry(code: 520, icon: "09", falling: .rain),
        "rainshowers": Entry(code: 521, icon: "09", falling: .rain),
        "heavyrainshowers": Entry(code: 522, icon: "09", falling: .rain),
        "lightrainshowersandthunder": Entry(code: 200, icon: "11", falling: .rain),
        "rainshowersandthunder": Entry(code: 201, icon: "11", falling: .rain),
        "heavyrainshowersandthunder": Entry(code: 202, icon: "11", falling: .rain),
        "lightrain": Entry(code: 500, icon: "10", falling: .rain),
        "rain": Entry(code: 501, icon: "10", falling: .rain),
        "heavyrain": Entry(code: 502, icon: "10", falling: .rain),
        "lightrainandthunder": Entry(code: 200, icon: "11", falling: .rain),
        "rainandthunder": Entry(code: 201, icon: "11", falling: .rain),
        "heavyrainandthunder": Entry(code: 202, icon: "11", falling: .rain),

        "lightsleetshowers": Entry(code: 612, icon: "13", falling: .sleet),
        "sleetshowers": Entry(code: 613, icon: "13", falling: .sleet),
        "heavysleetshowers": Entry(code: 613, icon: "13", falling: .sleet),
        "lightssleetshowersandthunder": Entry(code: 211, icon: "11", falling: .sleet),
        "sleetshowersandthunder": Entry(code: 211, icon: "11", falling: .sleet),
        "heavysleetshowersandthunder": Entry(code: 211, icon: "11", falling: .sleet),
        "lightsleet": Entry(code: 615, icon: "13", falling: .sleet),
        "sleet": Entry(code: 611, icon: "13", falling: .sleet),
        "heavysleet": Entry(code: 611, icon: "13", falling: .sleet),
        "lightsleetandthunder": Entry(code: 211, icon: "11", falling: .sleet),
        "sleetandthunder": Entry(code: 211, icon: "11", falling: .sleet),
        "heavysleetandthunder": Entry(code: 211, icon: "11", falling: .sleet),

        "lightsnowshowers": Entry(code: 620, icon: "13", falling: .snow),
        "snowshowers": Entry(code: 621, icon: "13", falling: .snow),
        "heavysnowshowers": Entry(code: 622, icon: "13", falling: .snow),
        "lightssnowshowersandthunder": Entry(code: 211, icon: "11", falling: .snow),
        "snowshowersandthunder": Entry(code: 211, icon: "11", falling: .snow),
        "heavysnowshowersandthunder": Entry(code: 211, icon: "11", falling: .snow),
        "lightsnow": Entry(code: 600, icon: "13", falling: .snow),
        "snow": Entry(code: 601, icon: "13", falling: .snow),
        "heavysnow": Entry(code: 602, icon: "13", falling: .snow),
        "lightsnowandthunder": Entry(code: 211, icon: "11", falling: .snow),
        "snowandthunder": Entry(code: 211, icon: "11", falling: .snow),
        "heavysnowandthunder": Entry(code: 211, icon: "11", falling: .snow),
    ]

    /// The symbol's name and variant: `rainshowers_night` → ("rainshowers", "night").
    static func parts(_ symbol: String) -> (name: String, variant: String?) {
        guard let underscore = symbol.firstIndex(of: "_") else { return (symbol, nil) }
        return (String(symbol[..<underscore]), String(symbol[symbol.index(after: underscore)...]))
    }

    /// The condition for a symbol code. The variant says day or night where the symbol has
    /// one: `_polartwilight` (the sun below the horizon all day, in the polar night's
    /// midday twilight) gets the night icon, since the day icons draw a sun in the sky that
    /// is not there. A symbol without a variant (cloudy, rain, fog …) is day or night by
    /// `sunIsUp`. An unknown symbol keeps its name and gets no icon (the theme shows
    /// `unknown.svg`), as an unknown WMO code does.
    static func condition(_ symbol: String, sunIsUp: Bool, describe: (Int) -> String) -> Condition {
        let (name, variant) = parts(symbol)
        guard let entry = table[name] else {
            return Condition(code: 0, main: symbol, description: symbol, icon: "")
        }
        let isDay = variant.map { $0 == "day" } ?? sunIsUp
        return Condition(code: entry.code, main: name, description: describe(entry.code), icon: entry.icon + (isDay ? "d" : "n"))
    }

    /// A step's amount (mm of water) as rain and snow, by what its symbol says falls: sleet
    /// counts as snow, as OpenWeather files its sleet codes (6xx) and amounts under snow; a
    /// symbol without precipitation (MET draws none below a threshold) leaves the amount to
    /// the temperature, snow at or below 0 °C. Zero is no rain and no snow (nil, as an API
    /// that leaves them out).
    static func split(_ amount: Double?, symbol: String?, celsius: Double) -> (rain: Double?, snow: Double?) {
        guard let amount, amount > 0 else { return (nil, nil) }
        let falling = symbol.flatMap { table[parts($0).name]?.falling } ?? .nothing
        switch falling {
        case .rain: return (amount, nil)
        case .sleet, .snow: return (nil, amount)
        case .nothing: return celsius <= 0 ? (nil, amount) : (amount, nil)
        }
    }
}
