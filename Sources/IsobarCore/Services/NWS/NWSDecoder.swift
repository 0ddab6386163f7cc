import Foundation

/// Decodes the NWS API's bodies for a point into the provider-independent `Forecast`.
/// Every value is converted by the unit the body names (`NWSUnits`) and checked there.
///
/// - current: the first hourly period (NWS's hourly forecast for the present hour; the
///   observation stations are another service, not asked);
/// - hourly: the hourly periods, each with what the grid data has for its hour (feels-like,
///   sky cover, gusts, visibility, and its share of the precipitation and snowfall amounts);
/// - daily: the hourly periods aggregated per local day (`DailyAggregation`: the most
///   significant hour's condition, so a day's icon agrees with its amounts, evening snow
///   included), with the 12-hour periods' high (day) and low (night) counted towards the
///   day of their middle, and the text (`detailedForecast`, English) of the day's daytime
///   period (else of the night that starts it) as its summary; the last day only when the
///   hourly data reaches its end;
/// - sun and moon: none in the bodies, computed later for every day (`ComputedSky`);
/// - alerts: none here (NWS's alerts are a warning source of their own).
///
/// Local hours and days are the point's `timeZone` from `/points`.
public struct NWSDecoder: Sendable {
    /// The UI-language text of an OpenWeather condition code (`owm_<code>`).
    public var describe: @Sendable (Int) -> String

    public init(describe: @escaping @Sendable (Int) -> String) {
        self.describe = describe
    }

    /// The 12-hour periods reach seven days ahead, the hourly ones six and a half.
    static let maxDays = 7

    /// A forecast period (hourly or 12-hour), converted and checked.
    struct Period: Sendable {
        var start: Date
        var end: Date
        var isDaytime: Bool?
        var temperature: Double
        var chance: Double?
        var dewPoint: Double?
        var humidity: Double?
        var windSpeed: Double?
        var windGust: Double?
        var windDirection: Double?
        var icon: String?
        var detailed: String?
    }

    /// The grid's layers Isobar reads, converted.
    struct Grid: Sendable {
        var dewPoint, humidity, feelsLike, skyCover, windGust, chance, precipitation, snowfall, visibility: NWSGridSeries

        /// No grid data (a snapshot without `nws-grid.json`): none of its values.
        static let none: Grid = {
            let empty = NWSGridSeries(spans: [])
            return Grid(dewPoint: empty, humidity: empty, feelsLike: empty, skyCover: empty, windGust: empty, chance: empty,
                        precipitation: empty, snowfall: empty, visibility: empty)
        }()
    }

    /// What each body is called in messages.
    private static func what(_ endpoint: Endpoint) -> String {
        switch endpoint {
        case .nwsPoints: return "NWS's point answer"
        case .nwsForecast: return "NWS's 12-hour forecast"
        case .nwsGrid: return "NWS's grid data"
        default: return "NWS's hourly forecast"
        }
    }

    private func failure(_ response: RawResponse, _ city: CityConfig, _ detail: String) -> IsobarError {
        IsobarError(step: .normalize, path: response.file?.path ?? response.endpoint.fileName,
                    message: "\(Self.what(response.endpoint)) for \(city.name): \(detail)")
    }

    private func decode<Body: Decodable>(_ type: Body.Type, _ response: RawResponse, _ city: CityConfig) throws -> Body {
        guard !response.body.isEmpty else { throw failure(response, city, "the response is empty") }
        do {
            return try JSONValueDecoder.decode(Body.self, from: response.body)
        } catch {
            throw failure(response, city, DecodingFailure.looksLikeHTML(response.body)
                ? "the response is HTML, not JSON" : "unexpected response: \(DecodingFailure.describe(error, data: response.body))")
        }
    }

    /// Runs `convert`, wording a refused value as the response's error.
    private func converting<Value>(_ response: RawResponse, _ city: CityConfig, _ convert: () throws(NWSUnits.Refusal) -> Value) throws -> Value {
        do {
            return try convert()
        } catch {
            throw failure(response, city, "unexpected response: \(error.path): \(error.detail)")
        }
    }

    func points(_ response: RawResponse, city: CityConfig) throws -> NWSPointsBody {
        let body = try decode(NWSPointsBody.self, response, city)
        if let point = body.geometry?.coordinates {
            guard point.count >= 2, (-180...180).contains(point[0]), (-90...90).contains(point[1]) else {
                throw failure(response, city, "unexpected response: geometry.coordinates: \(point) is not [longitude, latitude]")
            }
        }
        return body
    }

    /// The three forecast URLs a point answer names; NWS leaves them null where it has
    /// no grid for the point.
    func links(_ response: RawResponse, city: CityConfig) throws -> [Endpoint: String] {
        let properties = try points(response, city: city).properties
        let links: [Endpoint: String?] = [.nwsForecastHourly: properties.forecastHourly, .nwsForecast: properties.forecast,
                                          .nwsGrid: properties.forecastGridData]
        guard links.values.allSatisfy({ $0?.isEmpty == false }) else {
            throw failure(response, city, "NWS names no forecast for this point (its forecastHourly, forecast or forecastGridData is null)")
        }
        return links.compactMapValues { $0 }
    }

    func periods(_ response: RawResponse, city: CityConfig) throws -> [Period] {
        let body = try decode(NWSForecastBody.self, response, city)
        return try converting(response, city) { () throws(NWSUnits.Refusal) in
            var periods: [Period] = []
            for (index, period) in body.properties.periods.enumerated() {
                let at = "properties.periods[\(index)]"
                guard let start = NWSTime.date(period.startTime), let end = NWSTime.date(period.endTime), start < end else {
                    throw NWSUnits.Refusal(path: at, detail: "\"\(String(period.startTime.prefix(40)))\" to \"\(String(period.endTime.prefix(40)))\" is not a period of ISO 8601 times")
                }
                // A period without a temperature is no period.
                guard let temperature = try NWSUnits.temperature(period.temperature, unit: period.temperatureUnit, path: at + ".temperature") else { continue }
                periods.append(Period(
                    start: start, end: end, isDaytime: period.isDaytime, temperature: temperature,
                    chance: try NWSUnits.probability(period.probabilityOfPrecipitation, path: at + ".probabilityOfPrecipitation"),
                    dewPoint: try NWSUnits.quantity(period.dewpoint, .temperature, path: at + ".dewpoint"),
                    humidity: try NWSUnits.quantity(period.relativeHumidity, .percent, path: at + ".relativeHumidity"),
                    windSpeed: try NWSUnits.speed(period.windSpeed, path: at + ".windSpeed"),
                    windGust: try NWSUnits.speed(period.windGust, path: at + ".windGust"),
                    windDirection: try NWSUnits.direction(period.windDirection, path: at + ".windDirection"),
                    icon: period.icon, detailed: period.detailedForecast))
            }
            return periods.sorted { $0.start < $1.start }
        }
    }

    func grid(_ response: RawResponse, city: CityConfig) throws -> Grid {
        let layers = try decode(NWSGridBody.self, response, city).properties
        return try converting(response, city) { () throws(NWSUnits.Refusal) in
            Grid(dewPoint: try NWSGridSeries(layers.dewpoint, .temperature, path: "properties.dewpoint"),
                 humidity: try NWSGridSeries(layers.relativeHumidity, .percent, path: "properties.relativeHumidity"),
                 feelsLike: try NWSGridSeries(layers.apparentTemperature, .temperature, path: "properties.apparentTemperature"),
                 skyCover: try NWSGridSeries(layers.skyCover, .percent, path: "properties.skyCover"),
                 windGust: try NWSGridSeries(layers.windGust, .speed, path: "properties.windGust"),
                 chance: try NWSGridSeries(layers.probabilityOfPrecipitation, .probability, path: "properties.probabilityOfPrecipitation"),
                 precipitation: try NWSGridSeries(layers.quantitativePrecipitation, .precipitation, path: "properties.quantitativePrecipitation"),
                 snowfall: try NWSGridSeries(layers.snowfallAmount, .precipitation, path: "properties.snowfallAmount"),
                 visibility: try NWSGridSeries(layers.visibility, .distance, path: "properties.visibility"))
        }
    }

    /// Reads a body as the build would, so that one it could not read is never cached.
    func validate(_ response: RawResponse, city: CityConfig) throws {
        switch response.endpoint {
        case .nwsPoints: _ = try links(response, city: city)
        case .nwsGrid: _ = try grid(response, city: city)
        default: _ = try periods(response, city: city)
        }
    }

    public func forecast(points: RawResponse?, hourly: RawResponse, periods twelveHour: RawResponse?, grid gridData: RawResponse?,
                         city: CityConfig) throws -> Forecast {
        guard let points else {
            let beside = hourly.file?.deletingLastPathComponent().appendingPathComponent(Endpoint.nwsPoints.fileName).path
            throw IsobarError(step: .normalize, path: beside ?? Endpoint.nwsPoints.fileName,
                              message: "NWS's forecast for \(city.name) has no point answer beside it (its place and time zone)",
                              hint: "run once without --offline to fetch it, or add the /points answer as nws-points.json")
        }
        let point = try self.points(points, city: city)
        guard let zone = point.properties.timeZone.flatMap(TimeZone.init(identifier:)) ?? city.timeZone.flatMap(TimeZone.init(identifier:)) else {
            throw failure(points, city, "unexpected response: properties.timeZone: no IANA time zone (America/Denver)")
        }
        let hours = try periods(hourly, city: city)
        guard let first = hours.first, let last = hours.last else {
            throw failure(hourly, city, "unexpected response: properties.periods: no period with a temperature")
        }
        let halfDays = try twelveHour.map { try periods($0, city: city) } ?? []
        let grid = try gridData.map { try self.grid($0, city: city) } ?? Grid.none

        let steps = hours.map { step($0, grid) }
        let now = steps[0]
        // The hourly forecast has the coming hour's amount, not the last hour's: the first hourly row shows it.
        let current = CurrentConditions(hour: now)

        let ranges = halfDays.map { period in
            DailyAggregation.PeriodRange(middle: period.start.addingTimeInterval(period.end.timeIntervalSince(period.start) / 2),
                                         low: period.temperature, high: period.temperature,
                                         states: period.isDaytime.map { $0 ? .high : .low })
        }
        let today = LocalDay.key(for: first.start, in: zone)
        var daily = DailyAggregation.days(from: steps, current: current, zone: zone, maxDays: Self.maxDays, ranges: ranges)
            .filter { day in day.day == today || (LocalDay.hours(of: day.day, in: zone).map { $0.upperBound <= last.end } ?? false) }
        for index in daily.indices {
            let starting = halfDays.filter { LocalDay.key(for: $0.start, in: zone) == daily[index].day }
            let text = (starting.first { $0.isDaytime == true } ?? starting.first)?.detailed
            if let text = text?.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines), !text.isEmpty { daily[index].summary = text }
        }

        let coordinates = point.geometry?.coordinates
        let location = Location(
            name: city.name, country: city.country, state: city.state,
            latitude: coordinates.map { $0[1] } ?? city.latitude ?? 0, longitude: coordinates.map { $0[0] } ?? city.longitude ?? 0,
            timeZoneIdentifier: zone.identifier, utcOffsetSeconds: zone.secondsFromGMT(for: first.start))
        return Forecast(location: location, current: current, hourly: steps, daily: daily, alerts: [], airQuality: nil,
                        source: Source(api: "nws", fetchedAt: hourly.fetchedAt))
    }

    /// An hourly period as the model's step, with the grid's values for its hour.
    private func step(_ period: Period, _ grid: Grid) -> HourlyForecast {
        let (start, end) = (period.start, period.end)
        // What falls: snowfall (its depth, as other providers' snow) where the grid has
        // some, else the precipitation amount as rain; NWS's precipitation amount is the
        // water of both, so an hour with snow shows no rain rather than counting it twice.
        let snow = grid.snowfall.amount(from: start, to: end).flatMap { $0 > 0 ? $0 : nil }
        let rain = snow == nil ? grid.precipitation.amount(from: start, to: end).flatMap { $0 > 0 ? $0 : nil } : nil
        let cover = grid.skyCover.value(at: start)
        let humidity = period.humidity ?? grid.humidity.value(at: start)
        return HourlyForecast(
            time: start, stepHours: max(1, Int((end.timeIntervalSince(start) / 3600).rounded())), temperature: period.temperature,
            feelsLike: grid.feelsLike.value(at: start), humidity: humidity,
            precipitationChance: period.chance ?? grid.chance.value(at: start), rain: rain, snow: snow,
            windSpeed: period.windSpeed, windGust: period.windGust ?? grid.windGust.value(at: start), windDirection: period.windDirection,
            condition: NWSIcon.condition(period.icon, skyCover: cover, describe: describe),
            pressure: nil,
            dewPoint: period.dewPoint ?? grid.dewPoint.value(at: start)
                ?? humidity.flatMap { DewPoint.celsius(temperature: period.temperature, humidity: $0) },
            uvIndex: nil, cloudCover: cover, visibility: grid.visibility.value(at: start))
    }
}
