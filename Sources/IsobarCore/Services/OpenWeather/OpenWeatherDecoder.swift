import Foundation

/// Decodes OpenWeather response bodies into the provider-independent `Forecast` parts.
public struct OpenWeatherDecoder: Sendable {
    /// The `units` the responses were requested in.
    public var units: Units

    public init(units: Units) {
        self.units = units
    }

    private var convert: UnitConversion { UnitConversion(units: units) }

    func decode<Body: Decodable>(_ type: Body.Type, from response: RawResponse) throws -> Body {
        try read(response) { try JSONValueDecoder.decode(Body.self, fromTree: $0) }
    }

    func oneCallBody(_ response: RawResponse) throws -> OneCallBody {
        try read(response) { tree in try OneCallBody(json: tree) }
    }

    /// Parses the body, checks every number is plausible, and runs `decode` on the tree;
    /// any failure becomes a message naming the file and the JSON path.
    private func read<Body>(_ response: RawResponse, _ decode: (JSONValue) throws -> Body) throws -> Body {
        let name = response.file?.path ?? response.endpoint.fileName
        guard !response.body.isEmpty else {
            throw IsobarError(step: .normalize, path: name, message: "the response is empty")
        }
        if DecodingFailure.looksLikeHTML(response.body) {
            throw IsobarError(step: .normalize, path: name, message: "the response is HTML, not JSON (a proxy or an error page?)")
        }
        do {
            let tree = try JSONValueDecoder.tree(response.body)
            // Shape first (a missing or mistyped field is the more basic fault), then ranges.
            let body = try decode(tree)
            try PlausibilityRules.openWeather(units: units).check(tree)
            return body
        } catch {
            throw IsobarError(step: .normalize, path: name, message: "unexpected response: \(DecodingFailure.describe(error, data: response.body))")
        }
    }

    /// Checks that a body decodes as its endpoint's response, so that only usable answers
    /// are cached: a 200 carrying `{"cod": "404", …}` or a valid but cut-short document
    /// fails here, before it can stand in for a good response until `max_age`.
    public func validate(_ response: RawResponse) throws {
        switch response.endpoint {
        case .oneCall: _ = try oneCallBody(response)
        case .currentWeather: try checkCode(try decode(CurrentWeatherBody.self, from: response).cod, response)
        case .fiveDayForecast: try checkCode(try decode(FiveDayForecastBody.self, from: response).cod, response)
        case .airPollution: _ = try airPollution(response)
        case .geocode: _ = try geocode(response)
        // Another provider's body: adding a provider touches no file of OpenWeather's.
        default:
            throw IsobarError(step: .normalize, message: "\(response.endpoint.fileName) is not an OpenWeather response")
        }
    }

    private func checkCode(_ code: FlexibleCode?, _ response: RawResponse) throws {
        if let code, code.value != 200 {
            throw IsobarError(step: .normalize, path: response.file?.path ?? response.endpoint.fileName,
                              message: "the response reports an error (cod \(code.value))")
        }
    }

    // MARK: One Call 3.0

    public func oneCall(_ response: RawResponse, city: CityConfig) throws -> Forecast {
        let body = try oneCallBody(response)
        let c = body.current
        let current = CurrentConditions(
            time: Date(timeIntervalSince1970: c.dt),
            sunrise: SunTimes.date(c.sunrise, near: c.dt),
            sunset: SunTimes.date(c.sunset, near: c.dt),
            temperature: convert.celsius(c.temp),
            feelsLike: c.feels_like.map(convert.celsius),
            pressure: c.pressure,
            humidity: c.humidity,
            dewPoint: c.dew_point.map(convert.celsius),
            uvIndex: c.uvi,
            cloudCover: c.clouds,
            visibility: c.visibility,
            windSpeed: c.wind_speed.map(convert.metresPerSecond),
            windGust: c.wind_gust.map(convert.metresPerSecond),
            windDirection: c.wind_deg,
            rainLastHour: c.rain?.lastHour,
            snowLastHour: c.snow?.lastHour,
            conditions: c.weather.all)
        let hourly = (body.hourly ?? []).map { h in
            HourlyForecast(
                time: Date(timeIntervalSince1970: h.dt), stepHours: 1,
                temperature: convert.celsius(h.temp), feelsLike: h.feels_like.map(convert.celsius),
                humidity: h.humidity, precipitationChance: h.pop,
                rain: h.rain?.millimetres, snow: h.snow?.millimetres,
                windSpeed: h.wind_speed.map(convert.metresPerSecond), windGust: h.wind_gust.map(convert.metresPerSecond),
                windDirection: h.wind_deg, condition: h.weather.primary,
                pressure: h.pressure, dewPoint: h.dew_point.map(convert.celsius), uvIndex: h.uvi,
                cloudCover: h.clouds, visibility: h.visibility)
        }
        guard let offset = body.timezone_offset ?? TimeZone(identifier: body.timezone)?.secondsFromGMT(for: current.time) else {
            throw IsobarError(step: .normalize, path: response.file?.path ?? response.endpoint.fileName,
                              message: "timezone_offset is missing and the timezone \"\(body.timezone)\" is not one this system knows",
                              hint: "update the system's time zone data (Debian: tzdata)")
        }
        let location = Location(
            name: city.name, country: city.country, state: city.state,
            latitude: body.lat, longitude: body.lon,
            timeZoneIdentifier: body.timezone, utcOffsetSeconds: offset)
        let zone = location.timeZone
        let daily = (body.daily ?? []).map { d in
            DailyForecast(
                day: LocalDay.key(for: Date(timeIntervalSince1970: d.dt), in: zone),
                time: Date(timeIntervalSince1970: d.dt),
                sunrise: SunTimes.date(d.sunrise, near: d.dt),
                sunset: SunTimes.date(d.sunset, near: d.dt),
                moonPhase: d.moon_phase, summary: d.summary,
                temperatureMin: convert.celsius(d.temp.min), temperatureMax: convert.celsius(d.temp.max),
                precipitationChance: d.pop, rain: d.rain?.millimetres, snow: d.snow?.millimetres,
                windSpeed: d.wind_speed.map(convert.metresPerSecond), windDirection: d.wind_deg, uvIndex: d.uvi,
                condition: d.weather.primary,
                // 0 when the moon does not rise or set that day: absent, as for the sun.
                moonrise: SunTimes.date(d.moonrise, near: d.dt), moonset: SunTimes.date(d.moonset, near: d.dt),
                windGust: d.wind_gust.map(convert.metresPerSecond), humidity: d.humidity, pressure: d.pressure,
                dewPoint: d.dew_point.map(convert.celsius), cloudCover: d.clouds)
        }
        let alerts = (body.alerts ?? []).map { a in
            WeatherAlert(
                sender: a.sender_name ?? "", event: a.event,
                start: Date(timeIntervalSince1970: a.start), end: Date(timeIntervalSince1970: a.end),
                description: Self.unescapedLineBreaks(a.description ?? ""), tags: a.tags ?? [])
        }
        let nowcast = (body.minutely ?? []).map { NowcastStep(time: Date(timeIntervalSince1970: $0.dt), minutes: 1, intensity: $0.precipitation) }
        return Forecast(
            location: location, current: current, hourly: hourly, daily: daily, alerts: alerts,
            airQuality: nil, nowcast: nowcast, source: Source(api: "openweather/onecall3", fetchedAt: response.fetchedAt))
    }

    /// Some senders' alert texts arrive with the two characters `\n` where a line break
    /// belongs (escaped twice on the way); they are line breaks, on the page and in the feed.
    static func unescapedLineBreaks(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        return text.replacing("\\r\\n", with: "\n").replacing("\\n", with: "\n")
    }

    // MARK: Free 2.5 pair

    /// Builds a forecast from the free current-weather and 5-day/3-hour responses: the
    /// 3-hourly steps stand in for the hourly forecast (48 hours of them) and days are
    /// aggregated in the city's local time.
    public func freePair(current currentResponse: RawResponse, forecast forecastResponse: RawResponse, city: CityConfig) throws -> Forecast {
        let now = try decode(CurrentWeatherBody.self, from: currentResponse)
        let forecast = try decode(FiveDayForecastBody.self, from: forecastResponse)
        let location = Location(
            name: city.name, country: city.country, state: city.state,
            latitude: now.coord.lat, longitude: now.coord.lon,
            timeZoneIdentifier: city.timeZone, utcOffsetSeconds: now.timezone)
        let temperature = convert.celsius(now.main.temp)
        let current = CurrentConditions(
            time: Date(timeIntervalSince1970: now.dt),
            sunrise: SunTimes.date(now.sys?.sunrise, near: now.dt),
            sunset: SunTimes.date(now.sys?.sunset, near: now.dt),
            temperature: temperature,
            feelsLike: now.main.feels_like.map(convert.celsius),
            pressure: now.main.seaLevelPressure,
            humidity: now.main.humidity,
            dewPoint: DewPoint.celsius(sent: nil, temperature: temperature, humidity: now.main.humidity),
            uvIndex: nil,
            cloudCover: now.clouds?.all,
            visibility: now.visibility,
            windSpeed: now.wind?.speed.map(convert.metresPerSecond),
            windGust: now.wind?.gust.map(convert.metresPerSecond),
            windDirection: now.wind?.deg,
            rainLastHour: now.rain?.lastHour,
            snowLastHour: now.snow?.lastHour,
            conditions: now.weather.all)
        let steps = forecast.list.sorted { $0.dt < $1.dt }.map { entry in
            let temperature = convert.celsius(entry.main.temp)
            // No dew point and no UV index in this API: the dew point follows from
            // temperature and humidity, as for the current weather; UV stays absent.
            return HourlyForecast(
                time: Date(timeIntervalSince1970: entry.dt), stepHours: 3,
                temperature: temperature, feelsLike: entry.main.feels_like.map(convert.celsius),
                humidity: entry.main.humidity, precipitationChance: entry.pop,
                rain: entry.rain?.millimetres, snow: entry.snow?.millimetres,
                windSpeed: entry.wind?.speed.map(convert.metresPerSecond), windGust: entry.wind?.gust.map(convert.metresPerSecond),
                windDirection: entry.wind?.deg, condition: entry.weather.primary,
                pressure: entry.main.seaLevelPressure,
                dewPoint: DewPoint.celsius(sent: nil, temperature: temperature, humidity: entry.main.humidity),
                uvIndex: nil, cloudCover: entry.clouds?.all, visibility: entry.visibility)
        }
        let horizon = current.time.addingTimeInterval(48 * 3600)
        let daily = DailyAggregation.days(
            from: steps, current: current, zone: location.timeZone, maxDays: 5)
        return Forecast(
            location: location, current: current,
            hourly: steps.filter { $0.time <= horizon },
            daily: daily, alerts: [], airQuality: nil,
            source: Source(api: "openweather/free", fetchedAt: max(currentResponse.fetchedAt, forecastResponse.fetchedAt)))
    }

    // MARK: Air Pollution and Geocoding

    public func airPollution(_ response: RawResponse) throws -> AirQuality? {
        let body = try read(response) { tree in try AirPollutionBody(json: tree) }
        guard let entry = body.list.first else { return nil }
        guard (1...5).contains(entry.main.aqi) else {
            throw IsobarError(step: .normalize, path: response.file?.path ?? response.endpoint.fileName,
                              message: "air quality index \(entry.main.aqi) is outside 1…5")
        }
        return AirQuality(index: entry.main.aqi, time: Date(timeIntervalSince1970: entry.dt), components: entry.components ?? [:])
    }

    public func geocode(_ response: RawResponse) throws -> [GeocodedPlace] {
        try decode([GeocodedPlace].self, from: response)
    }
}
