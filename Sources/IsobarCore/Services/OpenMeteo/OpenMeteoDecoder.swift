import Foundation

/// Decodes Open-Meteo response bodies into the provider-independent `Forecast`.
public struct OpenMeteoDecoder: Sendable {
    /// The `units` the forecast was requested in (see `OpenMeteoRequests`).
    public var units: Units
    /// The UI-language description of a WMO code.
    public var describe: @Sendable (Int) -> String

    public init(units: Units, describe: @escaping @Sendable (Int) -> String) {
        self.units = units
        self.describe = describe
    }

    private var imperial: Bool { units == .imperial }
    private func celsius(_ value: Double) -> Double { imperial ? (value - 32) * 5 / 9 : value }
    private func metresPerSecond(_ value: Double) -> Double { imperial ? value * 0.44704 : value }
    private func millimetres(_ value: Double) -> Double { imperial ? value * 25.4 : value }
    /// Snowfall comes in cm (or inches); as water it is about a tenth of that, but pages
    /// show it as OpenWeather does: the depth in mm.
    private func snowMillimetres(_ value: Double) -> Double { imperial ? value * 25.4 : value * 10 }

    func decode<Body: Decodable>(_ type: Body.Type, from response: RawResponse) throws -> Body {
        let name = response.file?.path ?? response.endpoint.fileName
        guard !response.body.isEmpty else {
            throw IsobarError(step: .normalize, path: name, message: "the response is empty")
        }
        if let error = try? JSONDecoder().decode(OpenMeteoErrorBody.self, from: response.body), error.error {
            throw IsobarError(step: .normalize, path: name, message: "Open-Meteo reports an error: \(error.reason ?? "no reason given")")
        }
        let form = OpenMeteoBodyForm(units: units), geocode = response.endpoint == .openMeteoGeocode
        return try DecodingFailure.checked(Body.self, from: response.body, rules: .openMeteo(units: units),
                                           reshape: { geocode ? $0 : try form.canonical($0) }) {
            IsobarError(step: .normalize, path: name, message: $0)
        }
    }

    public func validate(_ response: RawResponse) throws {
        switch response.endpoint {
        case .openMeteoForecast: _ = try decode(OpenMeteoForecastBody.self, from: response)
        case .openMeteoAirQuality: _ = try decode(OpenMeteoAirQualityBody.self, from: response)
        case .openMeteoGeocode: _ = try decode(OpenMeteoGeocodeBody.self, from: response)
        default: throw IsobarError(step: .normalize, message: "\(response.endpoint.fileName) is not an Open-Meteo response")
        }
    }

    public func forecast(_ response: RawResponse, city: CityConfig) throws -> Forecast {
        let body = try decode(OpenMeteoForecastBody.self, from: response)
        let location = Location(
            name: city.name, country: city.country, state: city.state, latitude: body.latitude, longitude: body.longitude,
            timeZoneIdentifier: body.timezone ?? city.timeZone, utcOffsetSeconds: body.utc_offset_seconds)
        var hourly: [HourlyForecast] = []
        if let h = body.hourly {
            for index in (h.time ?? []).indices {
                guard let time = h.time?[index], let temperature = Self.value(h.temperature_2m, index) else { continue }
                let isDay = (Self.value(h.is_day, index) ?? 1) == 1
                let rain = (Self.value(h.rain, index) ?? 0) + (Self.value(h.showers, index) ?? 0)
                let humidity = Self.value(h.relative_humidity_2m, index)
                hourly.append(HourlyForecast(
                    time: Date(timeIntervalSince1970: time), stepHours: 1,
                    temperature: celsius(temperature), feelsLike: Self.value(h.apparent_temperature, index).map(celsius),
                    humidity: humidity,
                    precipitationChance: Self.value(h.precipitation_probability, index).map { $0 / 100 },
                    rain: Self.positive(rain).map(millimetres), snow: Self.positive(Self.value(h.snowfall, index) ?? 0).map(snowMillimetres),
                    windSpeed: Self.value(h.wind_speed_10m, index).map(metresPerSecond),
                    windGust: Self.value(h.wind_gusts_10m, index).map(metresPerSecond),
                    windDirection: Self.value(h.wind_direction_10m, index),
                    condition: Self.value(h.weather_code, index).map { WMOWeatherCode.condition($0, isDay: isDay, describe: describe) },
                    pressure: Self.value(h.pressure_msl, index),
                    // As for the current hour: from temperature and humidity where the body has none.
                    dewPoint: DewPoint.celsius(sent: Self.value(h.dew_point_2m, index).map(celsius), temperature: celsius(temperature), humidity: humidity),
                    uvIndex: Self.value(h.uv_index, index),
                    cloudCover: Self.value(h.cloud_cover, index),
                    visibility: Self.value(h.visibility, index)))
            }
        }

        // "Now": `current`, or where a body has none (only `hourly` asked for) the hour
        // holding the time it was fetched; with neither, nothing a page can show as now.
        func currentConditions(_ c: OpenMeteoForecastBody.Current) -> CurrentConditions {
            let isDayNow = (c.is_day ?? 1) == 1
            return CurrentConditions(
                time: Date(timeIntervalSince1970: c.time),
                sunrise: nil, sunset: nil,
                temperature: celsius(c.temperature_2m),
                feelsLike: c.apparent_temperature.map(celsius),
                pressure: c.pressure_msl,
                humidity: c.relative_humidity_2m,
                dewPoint: DewPoint.celsius(sent: c.dew_point_2m.map(celsius), temperature: celsius(c.temperature_2m), humidity: c.relative_humidity_2m),
                uvIndex: c.uv_index,
                cloudCover: c.cloud_cover,
                visibility: c.visibility,
                windSpeed: c.wind_speed_10m.map(metresPerSecond),
                windGust: c.wind_gusts_10m.map(metresPerSecond),
                windDirection: c.wind_direction_10m,
                rainLastHour: Self.positive(((c.rain ?? 0) + (c.showers ?? 0))).map(millimetres),
                snowLastHour: Self.positive(c.snowfall ?? 0).map(snowMillimetres),
                conditions: c.weather_code.map { [WMOWeatherCode.condition($0, isDay: isDayNow, describe: describe)] } ?? [],
                surfacePressure: c.pressure_msl == nil ? c.surface_pressure : nil)
        }
        let current: CurrentConditions
        if let c = body.current {
            current = currentConditions(c)
        } else if let hour = CurrentConditions.nearest(hourly, to: response.fetchedAt) {
            current = CurrentConditions(hour: hour)
        } else {
            throw IsobarError(step: .normalize, path: response.file?.path ?? response.endpoint.fileName,
                              message: "Open-Meteo's forecast for \(city.name) has neither current nor hourly: nothing to show as now",
                              hint: "ask for current or hourly (Isobar asks for both)")
        }

        var daily: [DailyForecast] = []
        if let d = body.daily {
            for index in (d.time ?? []).indices {
                guard let seconds = d.time?[index], let high = Self.value(d.temperature_2m_max, index),
                      let low = Self.value(d.temperature_2m_min, index) else { continue }
                let time = Date(timeIntervalSince1970: seconds)
                let sun = SunTimes.pair(sunrise: Self.value(d.sunrise, index), sunset: Self.value(d.sunset, index), near: seconds)
                let rain = (Self.value(d.rain_sum, index) ?? 0) + (Self.value(d.showers_sum, index) ?? 0)
                daily.append(DailyForecast(
                    day: LocalDay.key(for: time, in: location.timeZone), time: time,
                    sunrise: sun.sunrise, sunset: sun.sunset,
                    moonPhase: nil, summary: nil,
                    temperatureMin: celsius(low), temperatureMax: celsius(high),
                    precipitationChance: Self.value(d.precipitation_probability_max, index).map { $0 / 100 },
                    rain: Self.positive(rain).map(millimetres), snow: Self.positive(Self.value(d.snowfall_sum, index) ?? 0).map(snowMillimetres),
                    windSpeed: Self.value(d.wind_speed_10m_max, index).map(metresPerSecond),
                    windDirection: Self.value(d.wind_direction_10m_dominant, index),
                    uvIndex: Self.value(d.uv_index_max, index),
                    condition: Self.value(d.weather_code, index).map { WMOWeatherCode.condition($0, isDay: true, describe: describe) },
                    windGust: Self.value(d.wind_gusts_10m_max, index).map(metresPerSecond)))
            }
        }
        // Sunrise and sunset of today come from the daily block.
        var withSun = current
        let today = LocalDay.key(for: current.time, in: location.timeZone)
        if let day = daily.first(where: { $0.day == today }) {
            withSun.sunrise = day.sunrise
            withSun.sunset = day.sunset
        }
        // A quarter's sum, in mm (or inches), as an intensity over the quarter it covers.
        var nowcast: [NowcastStep] = []
        if let m = body.minutely_15 {
            for index in (m.time ?? []).indices {
                guard let time = m.time?[index], let amount = Self.value(m.precipitation, index) else { continue }
                nowcast.append(NowcastStep(
                    time: Date(timeIntervalSince1970: time - 900), minutes: 15, intensity: millimetres(amount) * 4))
            }
        }
        return Forecast(
            location: location, current: withSun, hourly: hourly, daily: daily, alerts: [], airQuality: nil,
            nowcast: nowcast, source: Source(api: "open-meteo", fetchedAt: response.fetchedAt))
    }

    /// The European AQI (0–100+) on the 1–5 scale the page explains: good, fair,
    /// moderate, poor, very poor (its bands of 20; "extremely poor" counts as very poor).
    public static func airQualityIndex(european value: Double) -> Int {
        switch value {
        case ..<20: return 1
        case ..<40: return 2
        case ..<60: return 3
        case ..<80: return 4
        default: return 5
        }
    }

    public func airQuality(_ response: RawResponse) throws -> AirQuality? {
        let body = try decode(OpenMeteoAirQualityBody.self, from: response)
        let c = body.current
        guard let aqi = c.european_aqi else { return nil }
        var components: [String: Double] = [:]
        components["pm2_5"] = c.pm2_5
        components["pm10"] = c.pm10
        components["o3"] = c.ozone
        components["no2"] = c.nitrogen_dioxide
        components["so2"] = c.sulphur_dioxide
        components["co"] = c.carbon_monoxide
        return AirQuality(index: Self.airQualityIndex(european: aqi), time: Date(timeIntervalSince1970: c.time), components: components)
    }

    /// Matches of the geocoding search, as the OpenWeather geocoder's places.
    public func geocode(_ response: RawResponse) throws -> [GeocodedPlace] {
        let body = try decode(OpenMeteoGeocodeBody.self, from: response)
        return (body.results ?? []).map {
            GeocodedPlace(name: $0.name, lat: $0.latitude, lon: $0.longitude, country: $0.country_code ?? "", state: $0.admin1)
        }
    }

    static func value<T>(_ array: [T?]?, _ index: Int) -> T? {
        guard let array, index < array.count else { return nil }
        return array[index]
    }

    static func positive(_ value: Double) -> Double? { value > 0 ? value : nil }
}
