import Foundation

/// NWS's forecast icons (`https://api.weather.gov/icons/land/day/rain,40?size=medium`; the
/// list at https://api.weather.gov/icons: 37 codes, each drawn by day and by night) on the
/// OpenWeather condition scale the theme draws, as `MetNorwaySymbol` does for MET Norway:
/// icons, "most significant condition" and the translated `owm_<code>` texts work
/// unchanged. The number after a comma is the chance of precipitation, which the period
/// carries anyway; a period whose weather changes has two codes (`sct,0/rain,40`), and the
/// more significant one stands for it.
///
/// Where no OpenWeather code says what an NWS code says, the closest honest one, which
/// leaves out a detail but says nothing false:
/// - `wind_skc` … `wind_ovc` → the sky alone (the wind is on the page beside it);
/// - `rain_sleet`, `snow_sleet` → 611 "sleet"; `rain_fzra`, `snow_fzra` → 511 "freezing rain";
/// - `rain` → 501, as for MET Norway's `rain` (no intensity given);
/// - `tsra_sct`, `tsra_hi` (fewer clouds) → 221 "scattered thunderstorms";
/// - `blizzard` → 602 "heavy snow"; `hurricane`, `tropical_storm` → 771 "squalls";
/// - `hot` and `cold` say the temperature, which the page shows: the sky stands for them,
///   from the grid's sky cover at the time (none known, no condition).
enum NWSIcon {
    struct Entry: Sendable {
        /// The OpenWeather condition code: icon, severity and the `owm_<code>` text.
        var code: Int
        /// The OpenWeather icon without its d/n suffix.
        var icon: String
    }

    static let table: [String: Entry] = [
        "skc": Entry(code: 800, icon: "01"), "few": Entry(code: 801, icon: "02"), "sct": Entry(code: 802, icon: "03"),
        "bkn": Entry(code: 803, icon: "04"), "ovc": Entry(code: 804, icon: "04"),
        "wind_skc": Entry(code: 800, icon: "01"), "wind_few": Entry(code: 801, icon: "02"), "wind_sct": Entry(code: 802, icon: "03"),
        "wind_bkn": Entry(code: 803, icon: "04"), "wind_ovc": Entry(code: 804, icon: "04"),
        "snow": Entry(code: 601, icon: "13"), "rain_snow": Entry(code: 616, icon: "13"), "rain_sleet": Entry(code: 611, icon: "13"),
        "snow_sleet": Entry(code: 611, icon: "13"), "sleet": Entry(code: 611, icon: "13"),
        "fzra": Entry(code: 511, icon: "13"), "rain_fzra": Entry(code: 511, icon: "13"), "snow_fzra": Entry(code: 511, icon: "13"),
        "rain": Entry(code: 501, icon: "10"), "rain_showers": Entry(code: 521, icon: "09"), "rain_showers_hi": Entry(code: 521, icon: "09"),
        "tsra": Entry(code: 211, icon: "11"), "tsra_sct": Entry(code: 221, icon: "11"), "tsra_hi": Entry(code: 221, icon: "11"),
        "tornado": Entry(code: 781, icon: "50"), "hurricane": Entry(code: 771, icon: "50"), "tropical_storm": Entry(code: 771, icon: "50"),
        "dust": Entry(code: 761, icon: "50"), "smoke": Entry(code: 711, icon: "50"), "haze": Entry(code: 721, icon: "50"),
        "fog": Entry(code: 741, icon: "50"), "blizzard": Entry(code: 602, icon: "13"),
    ]

    /// The codes that say the temperature, not the sky.
    static let temperatureOnly: Set<String> = ["hot", "cold"]

    /// An icon URL's day or night and codes: `…/icons/land/night/sct,20/rain,40?size=small`
    /// → (false, ["sct", "rain"]); nil for a URL of another shape.
    static func parts(_ url: String) -> (isDay: Bool, codes: [String])? {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        guard let marker = path.range(of: "/icons/") else { return nil }
        let segments = path[marker.upperBound...].split(separator: "/").map(String.init)
        guard segments.count >= 3, ["day", "night"].contains(segments[1]) else { return nil }
        let codes = segments.dropFirst(2).map { $0.split(separator: ",").first.map(String.init) ?? $0 }
        return (segments[1] == "day", codes)
    }

    /// The condition an icon URL stands for; `skyCover` (0…100 %) for `hot` and `cold`. An
    /// unknown code keeps its name and gets no icon (the theme shows `unknown.svg`), as an
    /// unknown MET Norway symbol does.
    static func condition(_ url: String?, skyCover: Double?, describe: (Int) -> String) -> Condition? {
        guard let url, let (isDay, codes) = parts(url) else { return nil }
        let conditions = codes.compactMap { code -> Condition? in
            let entry = temperatureOnly.contains(code) ? skyCover.map(sky) : table[code]
            guard let entry else {
                return temperatureOnly.contains(code) ? nil : Condition(code: 0, main: code, description: code, icon: "")
            }
            return Condition(code: entry.code, main: code, description: describe(entry.code), icon: entry.icon + (isDay ? "d" : "n"))
        }
        return ConditionSeverity.mostSignificant(conditions)
    }

    /// The sky code for a cover, by NWS's own bounds in eighths: few 1–2, scattered 3–4,
    /// broken 5–7, overcast 8.
    static func sky(_ cover: Double) -> Entry {
        switch cover {
        case ..<6.25: return table["skc"]!
        case ..<31.25: return table["few"]!
        case ..<56.25: return table["sct"]!
        case ..<93.75: return table["bkn"]!
        default: return table["ovc"]!
        }
    }
}
