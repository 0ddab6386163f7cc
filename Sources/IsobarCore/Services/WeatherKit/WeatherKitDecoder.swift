import Foundation

/// Decodes a WeatherKit REST `Weather` body into the provider-independent `Forecast`. The
/// body is always metric: °C, hPa and mm as the model keeps them; wind in km/h (→ m/s);
/// humidity and cloud cover as fractions (→ %); chances as fractions, as the model keeps them.
///
/// - current: `currentWeather`, with today's sunrise and sunset from `forecastDaily`;
/// - hourly: `forecastHourly.hours`; daily: `forecastDaily.days` (days of the requested
///   zone), their wind, humidity and cloud from the 7:00–19:00 `daytimeForecast`;
/// - nowcast: `forecastNextHour.minutes`, a minute each, where Apple has one (not everywhere);
/// - alerts: `weatherAlerts.alerts`, the event's name, agency, bounds, area and severity.
///
/// The body names no time zone: local days and hours come from the city's `timezone:`,
/// which the request needs too.
public struct WeatherKitDecoder: Sendable {
    /// The UI-language text of an OpenWeather condition code (`owm_<code>`).
    public var describe: @Sendable (Int) -> String

    public init(describe: @escaping @Sendable (Int) -> String) {
        self.describe = describe
    }

    static func metresPerSecond(_ kilometresPerHour: Double) -> Double { kilometresPerHour / 3.6 }
    static func percent(_ fraction: Double) -> Double { fraction * 100 }

    func body(_ response: RawResponse, city: CityConfig) throws -> WeatherKitBody {
        let name = response.file?.path ?? response.endpoint.fileName
        guard !response.body.isEmpty else {
            throw IsobarError(step: .normalize, path: name, message: "Apple WeatherKit's forecast for \(city.name) is empty")
        }
        return try DecodingFailure.checked(WeatherKitBody.self, from: response.body, rules: .weatherKit) {
            IsobarError(step: .normalize, path: name, message: "Apple WeatherKit's forecast for \(city.name): \($0)")
        }
    }

    public func forecast(_ response: RawResponse, city: CityConfig) throws -> Forecast {
        let body = try body(response, city: city)
        let file = response.file?.path ?? response.endpoint.fileName
        func time(_ text: String, _ what: String) throws -> Date {
            if let date = try? Date(text, strategy: .iso8601) { return date }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
            throw IsobarError(step: .normalize, path: file,
                              message: "Apple WeatherKit's forecast for \(city.name): unexpected response: \(what): \"\(text)\" is not an ISO 8601 time (2026-11-26T14:00:00Z)")
        }
        func optionalTime(_ text: String?, _ what: String) throws -> Date? { try text.map { try time($0, what) } }
        guard let zoneName = city.timeZone, let zone = TimeZone(identifier: zoneName) else {
            throw IsobarError.zoneMissing(city, latitude: city.latitude, longitude: city.longitude, step: .normalize, path: file, why: WeatherKitService.zoneReason)
        }
        var daily: [DailyForecast] = []
        for (index, day) in (body.forecastDaily?.days ?? []).enumerated() {
            let path = "forecastDaily.days[\(index)]"
            let start = try time(day.forecastStart, "\(path).forecastStart")
            let part = day.daytimeForecast
            let fall = WeatherKitCondition.split(day.precipitationAmount, type: day.precipitationType, celsius: day.temperatureMax)
            daily.append(DailyForecast(
                day: LocalDay.key(for: start, in: zone), time: start,
                sunrise: try optionalTime(day.sunrise, "\(path).sunrise"), sunset: try optionalTime(day.sunset, "\(path).sunset"),
                moonPhase: day.moonPhase.flatMap(Self.moonPhase), summary: nil,
                temperatureMin: day.temperatureMin, temperatureMax: day.temperatureMax,
                precipitationChance: day.precipitationChance, rain: fall.rain, snow: fall.snow,
                windSpeed: part?.windSpeed.map(Self.metresPerSecond), windDirection: part?.windDirection,
                uvIndex: day.maxUvIndex,
                condition: day.conditionCode.flatMap { WeatherKitCondition.condition($0, cloudCover: part?.cloudCover, isDay: true, describe: describe) },
                moonrise: try optionalTime(day.moonrise, "\(path).moonrise"), moonset: try optionalTime(day.moonset, "\(path).moonset"),
                humidity: part?.humidity.map(Self.percent), cloudCover: part?.cloudCover.map(Self.percent)))
        }
        var hourly: [HourlyForecast] = []
        for (index, hour) in (body.forecastHourly?.hours ?? []).enumerated() {
            let start = try time(hour.forecastStart, "forecastHourly.hours[\(index)].forecastStart")
            let fall = WeatherKitCondition.split(hour.precipitationAmount, type: hour.precipitationType, celsius: hour.temperature)
            hourly.append(HourlyForecast(
                time: start, stepHours: 1, temperature: hour.temperature, feelsLike: hour.temperatureApparent,
                humidity: hour.humidity.map(Self.percent), precipitationChance: hour.precipitationChance,
                rain: fall.rain, snow: fall.snow,
                windSpeed: hour.windSpeed.map(Self.metresPerSecond), windGust: hour.windGust.map(Self.metresPerSecond),
                windDirection: hour.windDirection,
                condition: hour.conditionCode.flatMap {
                    WeatherKitCondition.condition($0, cloudCover: hour.cloudCover, isDay: hour.daylight ?? true, describe: describe)
                },
                pressure: hour.pressure,
                dewPoint: hour.temperatureDewPoint ?? hour.humidity.flatMap { DewPoint.celsius(temperature: hour.temperature, humidity: Self.percent($0)) },
                uvIndex: hour.uvIndex, cloudCover: hour.cloudCover.map(Self.percent), visibility: hour.visibility))
        }

        // "Now": `currentWeather`, or where a body has none (a request for hours and days
        // only) the forecast hour holding the time it was fetched; with neither, nothing
        // a page can show as now.
        let current: CurrentConditions
        if let now = body.currentWeather {
            let nowTime = try time(now.asOf, "currentWeather.asOf")
            let today = daily.first { $0.day == LocalDay.key(for: nowTime, in: zone) }
            current = CurrentConditions(
                time: nowTime, sunrise: today?.sunrise, sunset: today?.sunset,
                temperature: now.temperature, feelsLike: now.temperatureApparent,
                pressure: now.pressure, humidity: now.humidity.map(Self.percent),
                dewPoint: now.temperatureDewPoint ?? now.humidity.flatMap { DewPoint.celsius(temperature: now.temperature, humidity: Self.percent($0)) },
                uvIndex: now.uvIndex, cloudCover: now.cloudCover.map(Self.percent), visibility: now.visibility,
                windSpeed: now.windSpeed.map(Self.metresPerSecond), windGust: now.windGust.map(Self.metresPerSecond),
                windDirection: now.windDirection,
                // `precipitationIntensity` is a rate now, not the last hour's amount.
                rainLastHour: nil, snowLastHour: nil,
                conditions: [now.conditionCode.flatMap {
                    WeatherKitCondition.condition($0, cloudCover: now.cloudCover, isDay: now.daylight ?? true, describe: describe)
                }].compactMap { $0 })
        } else if let hour = CurrentConditions.nearest(hourly, to: response.fetchedAt) {
            var fromHour = CurrentConditions(hour: hour)
            let today = daily.first { $0.day == LocalDay.key(for: hour.time, in: zone) }
            (fromHour.sunrise, fromHour.sunset) = (today?.sunrise, today?.sunset)
            current = fromHour
        } else {
            throw IsobarError(step: .normalize, path: file,
                              message: "Apple WeatherKit's forecast for \(city.name) has neither currentWeather nor forecastHourly: nothing to show as now",
                              hint: "ask for currentWeather or forecastHourly (Isobar asks for both)")
        }
        let latitude = body.currentWeather?.metadata?.latitude ?? city.latitude ?? 0
        let longitude = body.currentWeather?.metadata?.longitude ?? city.longitude ?? 0
        let nowTime = current.time

        var nowcast: [NowcastStep] = []
        for (index, minute) in (body.forecastNextHour?.minutes ?? []).enumerated() {
            let start = try time(minute.startTime, "forecastNextHour.minutes[\(index)].startTime")
            nowcast.append(NowcastStep(time: start, minutes: 1, intensity: minute.precipitationIntensity))
        }

        var alerts: [WeatherAlert] = []
        for (index, alert) in (body.weatherAlerts?.alerts ?? []).enumerated() {
            let path = "weatherAlerts.alerts[\(index)]"
            let start = try optionalTime(alert.eventOnsetTime, "\(path).eventOnsetTime") ?? time(alert.effectiveTime, "\(path).effectiveTime")
            let end = try optionalTime(alert.eventEndTime, "\(path).eventEndTime") ?? time(alert.expireTime, "\(path).expireTime")
            // The summary has no text of the warning, only where it applies.
            alerts.append(WeatherAlert(
                sender: alert.source ?? "", event: alert.description, start: start, end: end,
                description: alert.areaName ?? "", tags: [alert.severity].compactMap { $0 }.filter { $0 != "unknown" }))
        }

        let location = Location(
            name: city.name, country: city.country, state: city.state, latitude: latitude, longitude: longitude,
            timeZoneIdentifier: zone.identifier, utcOffsetSeconds: zone.secondsFromGMT(for: nowTime))
        var forecast = Forecast(
            location: location, current: current, hourly: hourly, daily: daily, alerts: alerts, airQuality: nil,
            nowcast: nowcast, source: Source(api: "weatherkit", fetchedAt: response.fetchedAt))
        // Without the data set, Apple did not say whether any are in force.
        if body.weatherAlerts == nil { forecast.alertsUnknown = true }
        return forecast
    }

    /// The phase's name as the model's fraction of the cycle: 0 new, 0.25 first quarter,
    /// 0.5 full, 0.75 last quarter, the crescents and gibbous phases between them.
    static func moonPhase(_ name: String) -> Double? {
        ["new": 0, "waxingCrescent": 0.125, "firstQuarter": 0.25, "waxingGibbous": 0.375,
         "full": 0.5, "waningGibbous": 0.625, "thirdQuarter": 0.75, "waningCrescent": 0.875][name]
    }
}
