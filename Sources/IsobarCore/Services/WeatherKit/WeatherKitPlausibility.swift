extension PlausibilityRules {
    static let weatherKit = makeWeatherKit()

    /// Apple WeatherKit: always °C, km/h, hPa (millibars), mm and mm/h, metres, and
    /// fractions 0…1 for humidity, cloud cover and chances, whatever the language. Its times
    /// are ISO 8601 strings, checked by the decoder.
    private static func makeWeatherKit() -> PlausibilityRules {
        var rules = PlausibilityRules()
        let speed = Measure.speed.range
        let fraction = PlausibleRange("fraction", Measure.probability.range)
        rules.add(temperature(fahrenheit: false), "temperature", "temperatureApparent", "temperatureDewPoint", "temperatureMax", "temperatureMin")
        rules.add(pressure, "pressure")
        rules.add(fraction, "humidity", "cloudCover", "precipitationChance")
        rules.add(PlausibleRange("wind speed", (speed.lowerBound * 3.6)...(speed.upperBound * 3.6), "km/h"), "windSpeed", "windGust")
        rules.add(direction, "windDirection")
        rules.add(uvIndex, "uvIndex", "maxUvIndex")
        rules.add(visibility, "visibility")
        rules.add(millimetres, "precipitationAmount", "snowfallAmount")
        rules.add(PlausibleRange("precipitation intensity", Measure.precipitation.range, "mm/h"), "precipitationIntensity", "snowfallIntensity")
        rules.add(latitude, "latitude")
        rules.add(longitude, "longitude")
        return rules
    }
}
