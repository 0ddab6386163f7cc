import Foundation
import Testing
@testable import IsobarCore

/// Issue 28, item 1: a body holds whichever variables its request (or the tool that
/// recorded it) named. The page is built from what is there — no icon for an hour without
/// a code, no column for a value no hour has — and only a body without the current
/// temperature, on which "now", the index card and the history stand, is refused.
@Suite struct PartialBodyTests {
    /// A body another tool recorded: `current_weather` and an hourly block with only
    /// temperature, humidity and wind speed, in ISO times and GMT (the API's default form).
    @Test func anOpenMeteoBodyWithSomeHourlyVariablesBuildsThroughTheBinary() async throws {
        let site = try TemporaryFolder()
        defer { site.cleanup() }
        _ = try site.write("""
            title: Partial
            base_url: https://weather.example.org/
            provider: snapshot
            snapshot_dir: Samples
            cities:
              - { name: Berlin, country: DE }
            """, to: "isobar.yml")
        let folder = site.url.appendingPathComponent("Samples/berlin-de")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.fixture("open-meteo-partial.json"), to: folder.appendingPathComponent("open-meteo-forecast.json"))

        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("is missing"), "\(run.stderr)")
        let page = try String(contentsOf: site.url.appendingPathComponent("_site/berlin-de/index.html"), encoding: .utf8)
        let hourly = try #require(page.firstRange(of: "<section class=\"hourly\"").map { String(page[$0.lowerBound...]) })
        let table = String(hourly[..<(hourly.firstRange(of: "</table>")?.upperBound ?? hourly.endIndex)])
        // 12:00 to 23:00 of the body's 48 hours, from the hour holding the data time.
        #expect(table.components(separatedBy: "<tr><th scope=\"row\">").count - 1 == 36, "\(table)")
        #expect(table.contains("<th scope=\"col\">Wind</th>"))
        #expect(!table.contains("<img"), "no icon for hours without a condition code")
        #expect(!table.contains(">Sky<"), "no Sky column when no hour has a code")
        #expect(!table.contains("Rain/snow"), "no precipitation column when no hour has a chance or an amount")
        #expect(table.contains(#"<td><bdi dir="ltr">4 m/s</bdi></td>"#) || table.contains(#"<td><bdi dir="ltr">5 m/s</bdi></td>"#), "hourly wind from km/h")
        // The current weather's code still gives "now" its icon and words.
        #expect(page.contains("class=\"now-icon\""))
        let json = try String(contentsOf: site.url.appendingPathComponent("_site/berlin-de/forecast.json"), encoding: .utf8)
        #expect(json.contains("\"humidity\""))
    }

    let openMeteo = OpenMeteoDecoder(units: .metric, describe: { "wmo \($0)" })

    func openMeteoForecast(_ body: String) throws -> Forecast {
        try openMeteo.forecast(RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: Date()), city: .test())
    }

    /// Every block may lack any variable but the current temperature: hours and days
    /// without their temperatures are left out, a series without times is no series.
    @Test func openMeteoBlocksWithoutCodesOrValues() throws {
        let forecast = try openMeteoForecast(#"""
            {"latitude":1,"longitude":2,"utc_offset_seconds":0,"timezone":"GMT",
             "current":{"time":1795348800,"temperature_2m":4},
             "hourly":{"time":[1795348800,1795352400],"temperature_2m":[4,null],"precipitation_probability":[20,30]},
             "daily":{"time":[1795305600,1795392000],"temperature_2m_max":[6,7],"temperature_2m_min":[1,null]},
             "minutely_15":{"precipitation":[0.1,0.2]}}
            """#)
        #expect(forecast.current.conditions.isEmpty)
        #expect(forecast.hourly.count == 1 && forecast.hourly[0].condition == nil && forecast.hourly[0].precipitationChance == 0.2)
        #expect(forecast.daily.map(\.day) == ["2026-11-22"] && forecast.daily[0].condition == nil)
        #expect(forecast.nowcast.isEmpty)
        let templates = try TemplateSet.load(from: TestPaths.repository.appendingPathComponent("Templates"))
        let presenter = try Fixtures.presenter()
        let page = try templates.renderBody("city", presenter.cityPage(forecast, city: .test(), places: [], root: "../")).text
        #expect(!page.contains("<img"), "no icon anywhere without a code")
        #expect(page.contains("Rain/snow") && !page.contains(">Wind</th>"))
        let index = try templates.renderBody("index", IndexPageModel(t: [:], title: "T", cards: [presenter.indexCard(forecast, city: .test())], missing: [])).text
        #expect(!index.contains("<img"))
        #expect(try !ForecastJSON.data(forecast, slug: "london-gb").isEmpty)
    }

    @Test func anOpenMeteoBodyWithoutTheCurrentTemperatureIsRefusedByName() {
        #expect {
            try openMeteoForecast(#"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"current":{"time":1795348800,"weather_code":3}}"#)
        } throws: { error in
            "\(error)".contains("current.temperature_2m")
        }
    }

    /// Issue 54, case 6: an Open-Meteo body with `hourly` but no `current` builds, "now"
    /// the hour that holds the time it was fetched; with neither, it is refused by name.
    @Test func anOpenMeteoBodyWithHoursButNoCurrentTakesNowFromTheHour() throws {
        let body = #"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"timezone":"GMT","hourly":{"time":[1795348800,1795352400,1795356000],"temperature_2m":[4,5,6],"weather_code":[3,61,61]}}"#
        let fetched = Date(timeIntervalSince1970: 1_795_353_000)  // 13:10, in the second hour
        let forecast = try openMeteo.forecast(RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: fetched), city: .test())
        #expect(forecast.current.time == Date(timeIntervalSince1970: 1_795_352_400) && forecast.current.temperature == 5)
        #expect(forecast.current.conditions.first?.code == 500)
        #expect { try openMeteoForecast(#"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"daily":{"time":[1795305600],"temperature_2m_max":[6],"temperature_2m_min":[1]}}"#) } throws: { error in
            "\(error)".contains("has neither current nor hourly: nothing to show as now")
        }
    }

    /// Issue 54, case 6: a WeatherKit body with only `forecastHourly` (and days) builds with
    /// "now" from the hour; one with only `forecastDaily` has nothing a page shows as now.
    @Test func aWeatherKitBodyWithoutCurrentWeatherTakesNowFromTheHour() throws {
        let text = try String(contentsOf: TestPaths.fixture("weatherkit/weather.json"), encoding: .utf8)
        var document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        document["currentWeather"] = nil
        let decoder = WeatherKitDecoder(describe: { "owm_\($0)" })
        let boston = CityConfig.test("Boston", country: "US", units: .imperial, timeZone: "America/New_York")
        let fetched = try Date("2026-11-26T15:20:00Z", strategy: .iso8601)
        let hoursOnly = RawResponse(endpoint: .weatherKit, body: try JSONSerialization.data(withJSONObject: document), fetchedAt: fetched)
        let forecast = try decoder.forecast(hoursOnly, city: boston)
        #expect(forecast.current.time == (try Date("2026-11-26T15:00:00Z", strategy: .iso8601)))
        #expect(forecast.current.temperature == forecast.hourly[1].temperature && forecast.current.sunrise != nil)
        #expect(forecast.daily.count == 2, "the fixture's two days")
        document["forecastHourly"] = nil
        let daysOnly = RawResponse(endpoint: .weatherKit, body: try JSONSerialization.data(withJSONObject: document), fetchedAt: fetched)
        #expect { try decoder.forecast(daysOnly, city: boston) } throws: { error in
            "\(error)".contains("has neither currentWeather nor forecastHourly: nothing to show as now")
        }
    }

    /// One Call and the free API: a body without `weather`, `feels_like`, `pressure`,
    /// `humidity` or wind still builds; the air pollution list without components too.
    @Test func openWeatherBodiesWithoutOptionalValues() throws {
        let decoder = OpenWeatherDecoder(units: .metric)
        let oneCall = #"""
            {"lat":51.5,"lon":-0.12,"timezone":"Europe/London","timezone_offset":0,
             "current":{"dt":1795348800,"temp":9},
             "hourly":[{"dt":1795348800,"temp":9},{"dt":1795352400,"temp":8,"weather":[]}],
             "daily":[{"dt":1795348800,"temp":{"min":5,"max":10}}]}
            """#
        let forecast = try decoder.oneCall(RawResponse(endpoint: .oneCall, body: Data(oneCall.utf8), fetchedAt: Date()), city: .test())
        #expect(forecast.current.conditions.isEmpty && forecast.current.feelsLike == nil && forecast.current.windSpeed == nil)
        #expect(forecast.hourly.count == 2 && forecast.hourly.allSatisfy { $0.condition == nil && $0.humidity == nil })
        #expect(forecast.daily.count == 1 && forecast.daily[0].condition == nil && forecast.daily[0].windSpeed == nil)

        let now = #"{"coord":{"lat":51.5,"lon":-0.12},"main":{"temp":9},"dt":1795348800,"timezone":0}"#
        let steps = #"{"list":[{"dt":1795352400,"main":{"temp":8}},{"dt":1795363200,"main":{"temp":7},"weather":[{"id":500,"icon":"10d"}]}]}"#
        let free = try decoder.freePair(
            current: RawResponse(endpoint: .currentWeather, body: Data(now.utf8), fetchedAt: Date()),
            forecast: RawResponse(endpoint: .fiveDayForecast, body: Data(steps.utf8), fetchedAt: Date()), city: .test())
        #expect(free.current.conditions.isEmpty && free.current.humidity == nil && free.current.dewPoint == nil)
        #expect(free.hourly.map { $0.condition?.code } == [nil, 500])
        #expect(free.daily.first?.condition?.code == 500, "a day takes the code of the steps that have one")

        let air = #"{"list":[{"main":{"aqi":2},"dt":1795348800}]}"#
        let quality = try decoder.airPollution(RawResponse(endpoint: .airPollution, body: Data(air.utf8), fetchedAt: Date()))
        #expect(quality?.index == 2 && quality?.components.isEmpty == true)
    }
}
