import Foundation

/// Decodes a MET Norway Locationforecast 2.0 `complete` body into the provider-independent
/// `Forecast`. The body is always metric (°C, m/s, hPa, mm), whatever the city's units.
///
/// - current: the first step (its instant values and its `next_1_hours` symbol);
/// - hourly: the steps with a `next_1_hours` (the first two and a half days or so): the
///   page shows 48 hours of one step length, and the 6-hourly steps after them would
///   break the hourly table and chart;
/// - daily: every step, the 6-hourly ones too, aggregated per local day as for the free
///   OpenWeather forecast (`DailyAggregation`), with the 6-hour periods' own lowest and
///   highest temperature; the last day only when the data reaches its end;
/// - sun and moon: none in the body, computed later for every day (`ComputedSky`).
///
/// The body names no time zone: local days and hours come from the city's `timezone:`,
/// which such a city must have.
public struct MetNorwayDecoder: Sendable {
    /// The UI-language text of an OpenWeather condition code (`owm_<code>`).
    public var describe: @Sendable (Int) -> String

    public init(describe: @escaping @Sendable (Int) -> String) {
        self.describe = describe
    }

    /// The most days the page gets: MET's data ends about nine days out.
    static let maxDays = 10

    func body(_ response: RawResponse, city: CityConfig) throws -> MetNorwayBody {
        let name = response.file?.path ?? response.endpoint.fileName
        guard !response.body.isEmpty else {
            throw IsobarError(step: .normalize, path: name, message: "MET Norway's forecast for \(city.name) is empty")
        }
        return try DecodingFailure.checked(MetNorwayBody.self, from: response.body, rules: .metNorway) {
            IsobarError(step: .normalize, path: name, message: "MET Norway's forecast for \(city.name): \($0)")
        }
    }

    public func forecast(_ response: RawResponse, city: CityConfig) throws -> Forecast {
        let body = try body(response, city: city)
        let file = response.file?.path ?? response.endpoint.fileName
        func unexpected(_ detail: String) -> IsobarError {
            IsobarError(step: .normalize, path: file, message: "MET Norway's forecast for \(city.name): unexpected response: \(detail)")
        }
        let point = body.geometry.coordinates
        guard point.count >= 2, (-180...180).contains(point[0]), (-90...90).contains(point[1]) else {
            throw unexpected("geometry.coordinates: \(point) is not [longitude, latitude, altitude]")
        }
        let (latitude, longitude) = (point[1], point[0])
        let zone = try timeZone(city, latitude: latitude, longitude: longitude, file: file)

        // Each step with its time, in time order; a step without a temperature is no step.
        var steps: [(time: Date, data: MetNorwayBody.StepData, temperature: Double)] = []
        for (index, step) in body.properties.timeseries.enumerated() {
            guard let time = try? Date(step.time, strategy: .iso8601) else {
                throw unexpected("properties.timeseries[\(index)].time: \"\(step.time)\" is not an ISO 8601 time (2026-11-22T12:00:00Z)")
            }
            guard let temperature = step.data.instant.details.air_temperature else { continue }
            steps.append((time, step.data, temperature))
        }
        steps.sort { $0.time < $1.time }
        guard let first = steps.first else {
            throw unexpected("properties.timeseries: no step with an air_temperature")
        }

        // Day or night for a symbol that does not say (cloudy, rain, fog …): the sun up or not.
        func sunIsUp(_ time: Date) -> Bool {
            let sun = SkyPosition.sun(time)
            return sun.altitude(at: time, latitude: latitude, longitude: longitude) >= RiseAndSet.Body.sun.horizon(sun)
        }
        func condition(_ period: MetNorwayBody.Period?, at middle: Date) -> Condition? {
            period?.summary.map { MetNorwaySymbol.condition($0.symbol_code, sunIsUp: sunIsUp(middle), describe: describe) }
        }
        /// A step as the model's forecast step: its instant values and the period of
        /// `hours` that starts at it (none: no condition, chance or amount).
        func forecastStep(_ time: Date, _ data: MetNorwayBody.StepData, _ temperature: Double,
                          period: MetNorwayBody.Period?, hours: Int) -> HourlyForecast {
            let i = data.instant.details
            let fall = MetNorwaySymbol.split(period?.details?.precipitation_amount, symbol: period?.summary?.symbol_code, celsius: temperature)
            return HourlyForecast(
                time: time, stepHours: hours, temperature: temperature, feelsLike: nil,
                humidity: i.relative_humidity,
                precipitationChance: period?.details?.probability_of_precipitation.map { $0 / 100 },
                rain: fall.rain, snow: fall.snow,
                windSpeed: i.wind_speed, windGust: i.wind_speed_of_gust, windDirection: i.wind_from_direction,
                condition: condition(period, at: time.addingTimeInterval(Double(hours) * 1800)),
                pressure: i.air_pressure_at_sea_level,
                dewPoint: DewPoint.celsius(sent: i.dew_point_temperature, temperature: temperature, humidity: i.relative_humidity),
                uvIndex: i.ultraviolet_index_clear_sky, cloudCover: i.cloud_area_fraction, visibility: nil)
        }

        let now = first.data.instant.details
        let current = CurrentConditions(
            time: first.time, sunrise: nil, sunset: nil,
            temperature: first.temperature, feelsLike: nil,
            pressure: now.air_pressure_at_sea_level, humidity: now.relative_humidity,
            dewPoint: DewPoint.celsius(sent: now.dew_point_temperature, temperature: first.temperature, humidity: now.relative_humidity),
            uvIndex: now.ultraviolet_index_clear_sky, cloudCover: now.cloud_area_fraction, visibility: nil,
            windSpeed: now.wind_speed, windGust: now.wind_speed_of_gust, windDirection: now.wind_from_direction,
            // The body has the coming hour's amount, not the last hour's: the first hourly row shows it.
            rainLastHour: nil, snowLastHour: nil,
            // As the first hourly row has it (day or night at the middle of the hour).
            conditions: [condition(first.data.next_1_hours ?? first.data.next_6_hours, at: first.time.addingTimeInterval(1800))].compactMap { $0 })

        let hourly = steps.compactMap { step in
            step.data.next_1_hours.map { forecastStep(step.time, step.data, step.temperature, period: $0, hours: 1) }
        }

        // For the days, each step stands for the period up to the next one: its hour while
        // the next step is an hour away, else its 6 hours (the 6-hourly part, and the last
        // hourly step before it), else its 12 hours; the last step, with no period, for its
        // instant alone. Amounts then add up without counting an hour twice, and the 6-hour
        // periods bring their extremes. A last day the data stops short of (`end`) would
        // show a night's low as its high: it is left out.
        var spans: [HourlyForecast] = []
        var ranges: [DailyAggregation.PeriodRange] = []
        var end = first.time
        for (index, step) in steps.enumerated() {
            let data = step.data
            let gap = index + 1 < steps.count ? steps[index + 1].time.timeIntervalSince(step.time) : nil
            let hourAway = gap.map { $0 <= 3600 } ?? (data.next_6_hours == nil)
            let chosen = (hourAway ? data.next_1_hours.map { (hours: 1, period: $0) } : nil)
                ?? data.next_6_hours.map { (hours: 6, period: $0) } ?? data.next_12_hours.map { (hours: 12, period: $0) }
            spans.append(forecastStep(step.time, data, step.temperature, period: chosen?.period, hours: chosen?.hours ?? 1))
            end = max(end, step.time.addingTimeInterval(Double(chosen?.hours ?? 0) * 3600))
            if chosen?.hours == 6, let details = chosen?.period.details, let low = details.air_temperature_min, let high = details.air_temperature_max {
                ranges.append(.init(middle: step.time.addingTimeInterval(3 * 3600), low: low, high: high))
            }
        }
        let today = LocalDay.key(for: first.time, in: zone)
        let daily = DailyAggregation.days(from: spans, current: current, zone: zone, maxDays: Self.maxDays, ranges: ranges)
            .filter { day in day.day == today || (LocalDay.hours(of: day.day, in: zone).map { $0.upperBound <= end } ?? false) }

        let location = Location(
            name: city.name, country: city.country, state: city.state, latitude: latitude, longitude: longitude,
            timeZoneIdentifier: zone.identifier, utcOffsetSeconds: zone.secondsFromGMT(for: first.time))
        return Forecast(
            location: location, current: current, hourly: hourly, daily: daily, alerts: [], airQuality: nil,
            source: Source(api: "met-norway", fetchedAt: response.fetchedAt))
    }

    /// The city's `timezone:`: MET Norway sends none, and without one a page's hours and
    /// days would be UTC's. The message names the zone to add where the tz database can
    /// tell it (the country's only zone, or of its zones the one whose reference city is
    /// nearest).
    private func timeZone(_ city: CityConfig, latitude: Double, longitude: Double, file: String) throws -> TimeZone {
        if let name = city.timeZone, let zone = TimeZone(identifier: name) { return zone }
        throw IsobarError.zoneMissing(city, latitude: latitude, longitude: longitude, step: .normalize, path: file, why: MetNorwayService.zoneReason)
    }
}
