extension PlausibilityRules {
    /// The rules for each unit system, built once: every body of every build is checked.
    static func openMeteo(units: Units) -> PlausibilityRules { openMeteoRules[units]! }
    private static let openMeteoRules = Dictionary(uniqueKeysWithValues: Units.allCases.map { ($0, makeOpenMeteo(units: $0)) })

    /// Open-Meteo, as `OpenMeteoRequests` asks for it: °C or °F, m/s or mph, mm or inches
    /// of rain, cm or inches of snow.
    private static func makeOpenMeteo(units: Units) -> PlausibilityRules {
        var rules = PlausibilityRules()
        let imperial = units == .imperial
        let temperature = temperature(fahrenheit: imperial)
        let speed = speed(milesPerHour: imperial)
        let precipitation = imperial ? PlausibleRange("precipitation", 0...80, "in") : millimetres
        let snowfall = imperial ? PlausibleRange("snowfall", 0...400, "in") : PlausibleRange("snowfall", 0...1_000, "cm")
        rules.add(temperature, "temperature_2m", "apparent_temperature", "dew_point_2m",
                  "temperature_2m_max", "temperature_2m_min", "apparent_temperature_max", "apparent_temperature_min")
        rules.add(time, "time")
        rules.add(sunTime, "sunrise", "sunset")
        rules.add(utcOffset, "utc_offset_seconds")
        rules.add(percent, "relative_humidity_2m", "cloud_cover", "precipitation_probability", "precipitation_probability_max")
        rules.add(pressure, "pressure_msl", "surface_pressure")
        rules.add(speed, "wind_speed_10m", "wind_gusts_10m", "wind_speed_10m_max", "wind_gusts_10m_max")
        rules.add(direction, "wind_direction_10m", "wind_direction_10m_dominant")
        rules.add(precipitation, "precipitation", "rain", "showers", "precipitation_sum", "rain_sum", "showers_sum")
        rules.add(snowfall, "snowfall", "snowfall_sum")
        rules.add(uvIndex, "uv_index", "uv_index_max")
        rules.add(visibility, "visibility")
        rules.add(PlausibleRange("WMO weather code", 0...99), "weather_code")
        rules.add(PlausibleRange("day flag", 0...1), "is_day")
        rules.add(latitude, "latitude")
        rules.add(longitude, "longitude")
        rules.add(PlausibleRange("European AQI", 0...1_000), "european_aqi")
        rules.add(pollutant, "pm10", "pm2_5", "nitrogen_dioxide", "ozone", "sulphur_dioxide", "carbon_monoxide")
        return rules
    }
}
