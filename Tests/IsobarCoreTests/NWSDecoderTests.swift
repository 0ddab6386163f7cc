import Foundation
import Testing
@testable import IsobarCore

/// The NWS API's bodies for a point, decoded (Fixtures/nws/, whose README names the
/// documentation each shape follows): units converted by their codes, icons mapped,
/// hours enriched from the grid, days aggregated.
@Suite struct NWSDecoderTests {
    let decoder = NWSDecoder(describe: { "owm_\($0)" })
    static let denver = CityConfig(
        name: "Denver", country: "US", state: "CO", latitude: 39.7392, longitude: -104.9903, units: .imperial, slug: "denver-us")

    static func fixtures() throws -> (points: RawResponse, hourly: RawResponse, periods: RawResponse, grid: RawResponse) {
        (try TestPaths.response("nws/points.json", .nwsPoints), try TestPaths.response("nws/forecast-hourly.json", .nwsForecastHourly),
         try TestPaths.response("nws/forecast.json", .nwsForecast), try TestPaths.response("nws/grid.json", .nwsGrid))
    }

    func decoded() throws -> Forecast {
        let f = try Self.fixtures()
        return try decoder.forecast(points: f.points, hourly: f.hourly, periods: f.periods, grid: f.grid, city: Self.denver)
    }

    static func near(_ value: Double?, _ expected: Double?) -> Bool {
        guard let value, let expected else { return value == nil && expected == nil }
        return abs(value - expected) < 1e-9
    }

    static func allNear(_ values: [Double?], _ expected: [Double?]) -> Bool {
        values.count == expected.count && zip(values, expected).allSatisfy { near($0, $1) }
    }

    /// Worked out by hand (America/Denver is UTC−7 in November): four hours from 10:00
    /// local (17:00 UTC); the grid's 6-hour precipitation amounts spread evenly over their
    /// hours (6 mm over 12–18 UTC is 1 mm an hour, 3 mm over 18–24 UTC half of one).
    @Test func decodesTheFixturesAsWorkedOutByHand() throws {
        let forecast = try decoded()
        #expect(forecast.source.api == "nws")
        #expect(forecast.alerts.isEmpty)
        #expect(forecast.location.latitude == 39.7392 && forecast.location.longitude == -104.9903)
        #expect(forecast.location.timeZoneIdentifier == "America/Denver" && forecast.location.utcOffsetSeconds == -25_200)

        let hours = forecast.hourly
        #expect(hours.map(\.time.timeIntervalSince1970) == [1_795_626_000, 1_795_629_600, 1_795_633_200, 1_795_636_800])
        #expect(hours.allSatisfy { $0.stepHours == 1 })
        // 41 °F, 6 °C as a quantity, 50 °F, 32 °F.
        #expect(hours.map(\.temperature) == [5, 6, 10, 0])
        // "10 mph", 18 km/h as a quantity, "5 to 10 mph" (the higher), "Calm".
        #expect(Self.allNear(hours.map(\.windSpeed), [4.4704, 5, 4.4704, 0]))
        // The period's own gust (36 km/h) where it has one, else the grid's (40 km/h).
        let gust: Double = 40 / 3.6
        #expect(Self.allNear(hours.map(\.windGust), [gust, 10, gust, gust]))
        #expect(hours.map(\.windDirection) == [315, 292.5, 270, nil])
        #expect(hours.map(\.precipitationChance) == [0.4, 0.3, 0.1, 0.6])
        #expect(hours.map(\.rain) == [1, 0.5, 0.5, nil])
        #expect(hours.map(\.snow) == [nil, nil, nil, 20])  // an hour with snow shows its snow, not its water as rain
        #expect(hours.map(\.cloudCover) == [75, 75, 20, 20])
        #expect(Self.allNear(hours.map(\.feelsLike), [2.2222222222222223, 2.2222222222222223, nil, nil]))
        #expect(hours.map(\.visibility) == [16093.44, 16093.44, 16093.44, 16093.44])
        #expect(Self.allNear(hours.map(\.dewPoint), [-1.1111111111111112, -0.5, 0, DewPoint.celsius(temperature: 0, humidity: 90)]))
        // rain,40; sct,0/rain,30 (the more significant); hot (the grid's sky: 20 % is "few"); snow,60.
        #expect(hours.map { $0.condition?.code } == [501, 501, 801, 601])
        #expect(hours.map { $0.condition?.icon } == ["10d", "10d", "02d", "13d"])
        #expect(hours.first?.condition?.description == "owm_501")

        let now = forecast.current
        #expect(now.time == hours[0].time && now.temperature == 5 && now.humidity == 65 && now.cloudCover == 75)
        #expect(Self.near(now.windSpeed, 4.4704) && now.windDirection == 315 && now.conditions.map(\.code) == [501])
        #expect(now.pressure == nil && now.uvIndex == nil && now.rainLastHour == nil)

        // One day: tonight's low (23 °F) belongs to the 26th, where the hourly data does not reach.
        let days = forecast.daily
        #expect(days.map(\.day) == ["2026-11-25"])
        let high: Double = (52 - 32) * 5 / 9
        #expect(Self.near(days[0].temperatureMax, high) && days[0].temperatureMin == 0)  // Today's high near 52 °F
        #expect(days[0].rain == 2 && days[0].snow == 20 && days[0].precipitationChance == 0.6)
        #expect(days[0].condition?.code == 601 && days[0].condition?.icon == "13d")  // the most significant hour's
        #expect(days[0].summary == "A chance of rain before 1pm, then snow likely. Mostly cloudy, with a high near 52. Chance of precipitation is 40%.")
    }

    /// Issue 54, case 5 (Honolulu: "78°" beside NWS's "a high near 77"): the day's high is
    /// what NWS's daytime period states, not the hourly forecast's maximum a degree above it;
    /// the hours count only where no period states one (the low here: tonight's belongs to
    /// the 26th).
    @Test func theDaysHighIsTheOneNWSStates() throws {
        let f = try Self.fixtures()
        var hourly = f.hourly
        let text = String(decoding: hourly.body, as: UTF8.self)
        let warmer = text.replacingOccurrences(of: #""temperature": 50,"#, with: #""temperature": 54,"#)
        #expect(warmer != text)
        hourly.body = Data(warmer.utf8)
        let forecast = try decoder.forecast(points: f.points, hourly: hourly, periods: f.periods, grid: f.grid, city: Self.denver)
        #expect(Self.near(forecast.hourly.map(\.temperature).max(), (54.0 - 32) * 5 / 9))
        #expect(Self.near(forecast.daily[0].temperatureMax, (52.0 - 32) * 5 / 9), "\(forecast.daily[0].temperatureMax)")
        #expect(forecast.daily[0].temperatureMin == 0)
    }

    @Test(arguments: [
        ("https://api.weather.gov/icons/land/day/rain,40?size=medium", true, ["rain"]),
        ("https://api.weather.gov/icons/land/night/sct,20/tsra_hi,40?size=small", false, ["sct", "tsra_hi"]),
        ("https://api.weather.gov/icons/land/day/skc", true, ["skc"]),
    ])
    func iconURLsGiveDayOrNightAndCodes(url: String, isDay: Bool, codes: [String]) throws {
        let parts = try #require(NWSIcon.parts(url))
        #expect(parts.isDay == isDay && parts.codes == codes)
    }

    @Test func everyIconCodeNWSListsIsMapped() {
        // https://api.weather.gov/icons: 37 codes; `hot` and `cold` take the sky's.
        let listed = ["skc", "few", "sct", "bkn", "ovc", "wind_skc", "wind_few", "wind_sct", "wind_bkn", "wind_ovc", "snow", "rain_snow",
                      "rain_sleet", "snow_sleet", "fzra", "rain_fzra", "snow_fzra", "sleet", "rain", "rain_showers", "rain_showers_hi",
                      "tsra", "tsra_sct", "tsra_hi", "tornado", "hurricane", "tropical_storm", "dust", "smoke", "haze", "hot", "cold",
                      "blizzard", "fog"]
        for code in listed {
            let condition = NWSIcon.condition("https://api.weather.gov/icons/land/night/\(code)?size=small", skyCover: 100, describe: { "owm_\($0)" })
            #expect(condition.map { $0.code != 0 && $0.icon.hasSuffix("n") } == true, "\(code)")
        }
        #expect(NWSIcon.condition("https://api.weather.gov/icons/land/day/cold", skyCover: nil, describe: { "\($0)" }) == nil)
        let unknown = NWSIcon.condition("https://api.weather.gov/icons/land/day/meteors", skyCover: nil, describe: { "\($0)" })
        #expect(unknown?.code == 0 && unknown?.icon == "")
    }

    @Test(arguments: [("PT1H", 3600.0), ("PT6H", 21_600), ("P1D", 86_400), ("P7DT13H", 651_600), ("PT1H30M", 5400)])
    func durations(text: String, seconds: Double) {
        #expect(NWSTime.duration(text) == seconds)
    }

    @Test func badDurationsAreNone() {
        for text in ["", "P", "1H", "PT", "P1H", "PTH", "P1Y"] { #expect(NWSTime.duration(text) == nil, "\(text)") }
        #expect(NWSTime.interval("2026-11-25T18:00:00+00:00/PT3H").map { $0.end.timeIntervalSince($0.start) } == 10_800)
    }

    /// A unit not known, or a value no weather has, fails with its path; never a guess.
    @Test(arguments: [
        (#""windGust": {"uom": "wmoUnit:km_h-1""#, #""windGust": {"uom": "wmoUnit:furlong_fortnight-1""#,
         "properties.windGust.values[0].value: unit \"wmoUnit:furlong_fortnight-1\" is not one Isobar knows for a wind speed"),
        (#""value": 16093.44"#, #""value": 1e12"#, "properties.visibility.values[0].value: 1000000000000 is not a plausible distance"),
    ])
    func implausibleGridValuesAreRefused(original: String, replacement: String, expected: String) throws {
        let f = try Self.fixtures()
        var grid = f.grid
        grid.body = Data(String(decoding: grid.body, as: UTF8.self).replacingOccurrences(of: original, with: replacement).utf8)
        #expect(grid.body != f.grid.body)
        do {
            _ = try decoder.forecast(points: f.points, hourly: f.hourly, periods: f.periods, grid: grid, city: Self.denver)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("NWS's grid data for Denver: unexpected response: \(expected)"), "\(error)")
        }
    }

    @Test func anHourlyForecastWithoutItsPointIsExplained() throws {
        let f = try Self.fixtures()
        do {
            _ = try decoder.forecast(points: nil, hourly: f.hourly, periods: nil, grid: nil, city: Self.denver)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("nws-points.json") && "\(error)".contains("no point answer"), "\(error)")
        }
    }

    /// The Denver demo through the whole Normalize stage: the days NWS's text describes,
    /// sunrise computed, nothing from before the data time.
    @Test func theDenverDemoNormalizes() throws {
        var responses: [Endpoint: RawResponse] = [:]
        for endpoint in [Endpoint.nwsPoints, .nwsForecastHourly, .nwsForecast, .nwsGrid] {
            responses[endpoint] = try Fixtures.sample("denver-us", endpoint)
        }
        let forecast = try Normalizer(describe: { $0 }).forecast(from: CityResponses(city: Self.denver, responses: responses))
        #expect(forecast.daily.count == 6)
        #expect(forecast.daily.allSatisfy { $0.summary?.isEmpty == false && $0.sunrise != nil })
        #expect(forecast.hourly.count == 156)
        // The snowstorm: Tuesday the 24th, local.
        let tuesday = try #require(forecast.daily.first { $0.day == "2026-11-24" })
        #expect(tuesday.condition?.code == 601 && (tuesday.snow ?? 0) > 100 && tuesday.rain == nil)
        #expect(forecast.current.conditions.first?.description == "owm_801")
    }
}
