/// WeatherKit's condition codes (`conditionCode`: the `WeatherCondition` cases of
/// https://developer.apple.com/documentation/weatherkit/weathercondition, which the REST
/// API sends capitalised: `Clear`, `MostlyCloudy`, `HeavyRain` …; Fixtures/weatherkit/
/// conditions.txt lists all 34) on the OpenWeather condition scale the theme draws, as
/// `MetNorwaySymbol` does for MET's symbols: icons, "most significant condition" and the
/// rest of the pipeline work unchanged, and each text is an existing `owm_<code>` string,
/// translated in every language the theme has.
///
/// Where no OpenWeather code says it, the closest honest one, which leaves out a detail but
/// says nothing false:
/// - Breezy, Windy, Hot, Frigid say nothing of the sky: the sky is read from the step's
///   cloud cover, as clear to overcast (`skyCode`); without a cloud cover, no condition;
/// - TropicalStorm and Hurricane → 771 "squalls" (their wind, without the storm's name);
/// - Blizzard → 602 "heavy snow" (without the wind); BlowingSnow → 601 "snow";
/// - Hail → 613 "sleet showers" (ice falling in showers; OpenWeather has no hail code);
/// - FreezingDrizzle → 511 "freezing rain", as Open-Meteo's freezing drizzle is;
/// - IsolatedThunderstorms → 211 "thunderstorm"; StrongStorms → 212 "heavy thunderstorm".
enum WeatherKitCondition {
    struct Entry: Sendable {
        /// The OpenWeather condition code: icon, severity and the `owm_<code>` text.
        var code: Int
        /// The OpenWeather icon without its d/n suffix.
        var icon: String
    }

    static let table: [String: Entry] = [
        "Clear": Entry(code: 800, icon: "01"),
        "MostlyClear": Entry(code: 801, icon: "02"),
        "PartlyCloudy": Entry(code: 802, icon: "03"),
        "MostlyCloudy": Entry(code: 803, icon: "04"),
        "Cloudy": Entry(code: 804, icon: "04"),
        "Foggy": Entry(code: 741, icon: "50"),
        "Haze": Entry(code: 721, icon: "50"),
        "Smoky": Entry(code: 711, icon: "50"),
        "BlowingDust": Entry(code: 761, icon: "50"),

        "Drizzle": Entry(code: 301, icon: "09"),
        "FreezingDrizzle": Entry(code: 511, icon: "13"),
        "Rain": Entry(code: 501, icon: "10"),
        "HeavyRain": Entry(code: 502, icon: "10"),
        "SunShowers": Entry(code: 521, icon: "09"),
        "FreezingRain": Entry(code: 511, icon: "13"),
        "IsolatedThunderstorms": Entry(code: 211, icon: "11"),
        "ScatteredThunderstorms": Entry(code: 221, icon: "11"),
        "Thunderstorms": Entry(code: 211, icon: "11"),
        "StrongStorms": Entry(code: 212, icon: "11"),
        "TropicalStorm": Entry(code: 771, icon: "50"),
        "Hurricane": Entry(code: 771, icon: "50"),

        "Flurries": Entry(code: 620, icon: "13"),
        "SunFlurries": Entry(code: 620, icon: "13"),
        "Snow": Entry(code: 601, icon: "13"),
        "HeavySnow": Entry(code: 602, icon: "13"),
        "Blizzard": Entry(code: 602, icon: "13"),
        "BlowingSnow": Entry(code: 601, icon: "13"),
        "Sleet": Entry(code: 611, icon: "13"),
        "WintryMix": Entry(code: 616, icon: "13"),
        "Hail": Entry(code: 613, icon: "13"),
    ]

    /// The codes that describe wind or temperature, not the sky.
    static let skyless: Set<String> = ["Breezy", "Windy", "Hot", "Frigid"]

    /// The condition for a code; `cloudCover` (0…1) for the skyless ones. An unknown code
    /// keeps its name and gets no icon (the theme shows `unknown.svg`), as an unknown WMO
    /// code or MET symbol does.
    static func condition(_ name: String, cloudCover: Double?, isDay: Bool, describe: (Int) -> String) -> Condition? {
        let entry: Entry
        if let known = table[name] {
            entry = known
        } else if skyless.contains(name) {
            guard let cloudCover else { return nil }
            entry = skyCode(cloudCover)
        } else {
            return Condition(code: 0, main: name, description: name, icon: "")
        }
        return Condition(code: entry.code, main: name, description: describe(entry.code), icon: entry.icon + (isDay ? "d" : "n"))
    }

    /// OpenWeather's cloud codes by cover: 801 few clouds (11–25 %), 802 scattered
    /// (25–50 %), 803 broken (51–84 %), 804 overcast (85–100 %), as its condition list
    /// defines them.
    static func skyCode(_ cloudCover: Double) -> Entry {
        switch cloudCover {
        case ..<0.11: return table["Clear"]!
        case ..<0.25: return table["MostlyClear"]!
        case ..<0.51: return table["PartlyCloudy"]!
        case ..<0.85: return table["MostlyCloudy"]!
        default: return table["Cloudy"]!
        }
    }

    /// What falls, by `precipitationType`, for splitting an amount (mm of water) into rain
    /// and snow: sleet and hail count as snow, as OpenWeather files ice under snow; rain,
    /// "precipitation" and mixed as rain; none said (clear, or no type) by the temperature,
    /// snow at or below 0 °C. Zero is no rain and no snow (nil, as an API that leaves them out).
    static func split(_ amount: Double?, type: String?, celsius: Double) -> (rain: Double?, snow: Double?) {
        guard let amount, amount > 0 else { return (nil, nil) }
        switch type {
        case "snow", "sleet", "hail": return (nil, amount)
        case "rain", "precipitation", "mixed": return (amount, nil)
        default: return celsius <= 0 ? (nil, amount) : (amount, nil)
        }
    }
}
