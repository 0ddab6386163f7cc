extension PlausibilityRules {
    /// The rules for each unit system, built once: every body of every build is checked.
    static func openWeather(units: Units) -> PlausibilityRules { openWeatherRules[units]! }
    private static let openWeatherRules = Dictionary(uniqueKeysWithValues: Units.allCases.map { ($0, makeOpenWeather(units: $0)) })

    /// OpenWeather: temperatures in the requested units, wind in m/s or mph, rain and snow
    /// always in mm, pressure always in hPa.
    private static func makeOpenWeather(units: Units) -> PlausibilityRules {
        var rules = PlausibilityRules()
        let temperature = temperature(fahrenheit: units == .imperial, kelvin: units == .standard)
        let speed = speed(milesPerHour: units == .imperial)
        let precipitation = millimetres
        rules.add(temperature, "temp", "feels_like", "dew_point", "temp_min", "temp_max")
        rules.add(temperature, under: ["temp", "feels_like"], "min", "max", "day", "night", "eve", "morn")
        rules.add(time, "dt")
        rules.add(sunTime, "sunrise", "sunset", "moonrise", "moonset")
        rules.add(time, under: ["alerts"], "start", "end")
        rules.add(utcOffset, "timezone_offset", "timezone")
        rules.add(pressure, "pressure", "sea_level", "grnd_level")
        rules.add(percent, "humidity", "clouds")
        rules.add(percent, under: ["clouds"], "all")
        rules.add(PlausibleRange("probability", Measure.probability.range), "pop")
        rules.add(uvIndex, "uvi")
        rules.add(visibility, "visibility")
        rules.add(speed, "wind_speed", "wind_gust")
        rules.add(speed, under: ["wind"], "speed", "gust")
        rules.add(direction, "wind_deg")
        rules.add(direction, under: ["wind"], "deg")
        rules.add(precipitation, "rain", "snow", "precipitation")
        rules.add(precipitation, under: ["rain", "snow"], "1h", "3h")
        rules.add(PlausibleRange("moon phase", Measure.moonPhase.range), "moon_phase")
        rules.add(PlausibleRange("condition code", 100...999), under: ["weather"], "id")
        rules.add(latitude, "lat")
        rules.add(longitude, "lon")
        rules.add(pollutant, under: ["components"], "co", "no", "no2", "o3", "so2", "pm2_5", "pm10", "nh3")
        return rules
    }
}
