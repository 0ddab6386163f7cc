/// WMO weather interpretation codes (Open-Meteo's `weather_code`) on the OpenWeather
/// condition scale the theme draws: each code gets the OpenWeather condition code whose
/// icon and severity it matches, so icons, "most significant condition" and the rest of
/// the pipeline work unchanged. Descriptions come from the UI strings (`wmo_<code>`).
public enum WMOWeatherCode {
    /// WMO code → (OpenWeather condition code, icon without the d/n suffix).
    static let table: [Int: (code: Int, icon: String)] = [
        0: (800, "01"), 1: (801, "02"), 2: (802, "03"), 3: (804, "04"),
        45: (741, "50"), 48: (741, "50"),
        51: (300, "09"), 53: (301, "09"), 55: (302, "09"),
        56: (511, "13"), 57: (511, "13"),
        61: (500, "10"), 63: (501, "10"), 65: (502, "10"),
        66: (511, "13"), 67: (511, "13"),
        71: (600, "13"), 73: (601, "13"), 75: (602, "13"), 77: (600, "13"),
        80: (520, "09"), 81: (521, "09"), 82: (522, "09"),
        85: (620, "13"), 86: (621, "13"),
        95: (211, "11"), 96: (201, "11"), 99: (202, "11"),
    ]

    /// The condition for a WMO code; an unknown code keeps its number and gets no icon
    /// (the theme shows `unknown.svg`).
    public static func condition(_ wmo: Int, isDay: Bool, describe: (Int) -> String) -> Condition {
        guard let entry = table[wmo] else {
            return Condition(code: 0, main: "Unknown", description: describe(wmo), icon: "")
        }
        return Condition(code: entry.code, main: "WMO \(wmo)", description: describe(wmo), icon: entry.icon + (isDay ? "d" : "n"))
    }
}

extension Condition {
    /// The UI strings' key describing this condition: `wmo_61` for one read from a WMO
    /// code (its `main` says which, see above), else `owm_500` for the OpenWeather code.
    /// Present looks it up in each page's language, so descriptions never depend on the
    /// language the data was fetched in.
    public var textKey: String {
        if main.hasPrefix("WMO "), let wmo = Int(main.dropFirst(4)) { return "wmo_\(wmo)" }
        return "owm_\(code)"
    }
}
