/// Orders OpenWeather condition codes by how much they matter to someone planning a day,
/// so a day with one thunderstorm step is shown as a thunderstorm day, not as its clear hours.
enum ConditionSeverity {
    static func rank(_ condition: Condition) -> Int {
        let code = condition.code
        let group: Int
        switch code {
        case 200..<300: group = 9  // thunderstorm
        case 781, 771: group = 10  // tornado, squall
        case 600..<700: group = 8  // snow, sleet
        case 500..<600: group = 7  // rain
        case 300..<400: group = 6  // drizzle
        case 700..<800: group = 5  // mist, haze, dust, fog
        case 801...804: group = code - 800  // more cloud, more significant
        default: group = 0  // 800 clear and anything unknown
        }
        // Within a group a higher code is heavier (502 heavy rain > 500 light rain).
        return group * 1000 + code % 1000
    }

    static func mostSignificant(_ conditions: [Condition]) -> Condition? {
        conditions.max { rank($0) < rank($1) }
    }
}
