/// The plausible range of each number a provider's responses carry, by member name. A
/// name that means different things in different places (`min` of a temperature, `speed`
/// of the wind, `1h` of rain) is looked up under its parent's name first. Elements of an
/// array are checked under the array's name, so Open-Meteo's parallel series
/// (`hourly.temperature_2m[5]`) and One Call's lists (`weather[0].id`) both resolve.
/// Names no rule knows are left alone: Isobar does not read them.
struct PlausibilityRules: Sendable {
    private struct Rule { var range: PlausibleRange?; var byParent: [String: PlausibleRange] = [:] }
    private var rules: [String: Rule] = [:]

    func range(of name: String, in parent: String?) -> PlausibleRange? {
        guard let rule = rules[name] else { return nil }
        if let parent, !rule.byParent.isEmpty, let range = rule.byParent[parent] { return range }
        return rule.range
    }

    private mutating func add(_ range: PlausibleRange, _ names: String...) {
        for name in names { rules[name, default: Rule()].range = range }
    }

    private mutating func add(_ range: PlausibleRange, under parents: [String], _ names: String...) {
        for parent in parents {
            for name in names { rules[name, default: Rule()].byParent[parent] = range }
        }
    }

    // The ranges are the forecast model's (`Measure`), in the units each response is in:
    // wider than any record, so a real extreme always passes; they exist to stop what no
    // weather can be, not to second-guess a provider. (PlausibilityTests checks that the
    // converted ones convert back.)

    static func temperature(fahrenheit: Bool, kelvin: Bool = false) -> PlausibleRange {
        if kelvin { return PlausibleRange("temperature", 173.15...373.15, "K") }
        return fahrenheit ? PlausibleRange("temperature", -148...212, "°F") : PlausibleRange("temperature", Measure.temperature.range, "°C")
    }

    static func speed(milesPerHour: Bool) -> PlausibleRange {
        milesPerHour ? PlausibleRange("wind speed", 0...336, "mph") : PlausibleRange("wind speed", Measure.speed.range, "m/s")
    }

    /// A data time, forecast step or alert bound: 2000…2100 (a forecast is not from 1970).
    static let time = PlausibleRange("time (seconds since 1970)", 946_684_800...4_102_444_800)
    /// Sunrise, sunset, moonrise, moonset: 0 is what the API sends when there is none (polar
    /// night, midnight sun), which presentation treats as absent.
    private static let sunTime = PlausibleRange("time (seconds since 1970)", 0...4_102_444_800)
    private static let utcOffset = PlausibleRange("UTC offset", -64_800...64_800, "s")
    private static let percent = PlausibleRange("percentage", Measure.percent.range, "%")
    private static let pressure = PlausibleRange("pressure", Measure.pressure.range, "hPa")
    private static let direction = PlausibleRange("direction", Measure.direction.range, "°")
    private static let uvIndex = PlausibleRange("UV index", Measure.uvIndex.range)
    private static let visibility = PlausibleRange("visibility", Measure.distance.range, "m")
    private static let millimetres = PlausibleRange("precipitation", Measure.precipitation.range, "mm")
    private static let latitude = PlausibleRange("latitude", -90...90, "°")
    private static let longitude = PlausibleRange("longitude", -180...180, "°")
    private static let pollutant = PlausibleRange("concentration", 0...100_000, "µg/m³")

    /// The rules for each provider and unit system, built once: every body of every build
    /// is checked.
    static func openWeather(units: Units) -> PlausibilityRules { openWeatherRules[units]! }
    static func openMeteo(units: Units) -> PlausibilityRules { openMeteoRules[units]! }

    static let metNorway = makeMetNorway()
    static let weatherKit = makeWeatherKit()
    private static let openWeatherRules = Dictionary(uniqueKeysWithValues: Units.allCases.map { ($0, makeOpenWeather(units: $0)) })
    private static let openMeteoRules = Dictionary(uniqueKeysWithValues: Units.allCases.map { ($0, makeOpenMeteo(units: $0)) })

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
