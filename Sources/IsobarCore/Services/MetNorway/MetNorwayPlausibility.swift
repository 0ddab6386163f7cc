extension PlausibilityRules {
    static let metNorway = makeMetNorway()

    /// MET Norway's Locationforecast: always °C, m/s, hPa, mm and %, whatever was asked
    /// (`properties.meta.units` says so). Its times are ISO 8601 strings and its
    /// coordinates one mixed array, both checked by the decoder.
    private static func makeMetNorway() -> PlausibilityRules {
        var rules = PlausibilityRules()
        let speed = speed(milesPerHour: false)
        rules.add(temperature(fahrenheit: false), "air_temperature", "dew_point_temperature", "air_temperature_max", "air_temperature_min",
                  "air_temperature_percentile_10", "air_temperature_percentile_90")
        rules.add(pressure, "air_pressure_at_sea_level")
        rules.add(percent, "cloud_area_fraction", "cloud_area_fraction_high", "cloud_area_fraction_low", "cloud_area_fraction_medium",
                  "fog_area_fraction", "relative_humidity", "probability_of_precipitation", "probability_of_thunder")
        rules.add(uvIndex, "ultraviolet_index_clear_sky")
        rules.add(direction, "wind_from_direction")
        rules.add(speed, "wind_speed", "wind_speed_of_gust", "wind_speed_percentile_10", "wind_speed_percentile_90")
        rules.add(millimetres, "precipitation_amount", "precipitation_amount_min", "precipitation_amount_max")
        return rules
    }
}
