import Foundation
import Testing
@testable import IsobarCore

/// Issue 15, "every value": each hourly and daily value the APIs send is kept in the
/// normalized `Forecast`, in canonical units (hPa at sea level, °C, 0…100 %, metres, m/s);
/// a value a body lacks or sends as null is nil, and one no weather can have is refused
/// like any other (`PlausibilityTests`), naming where it is.
@Suite struct ForecastValuesTests {
    static func body(_ endpoint: Endpoint, _ text: String) -> RawResponse {
        RawResponse(endpoint: endpoint, body: Data(text.utf8), fetchedAt: Date(timeIntervalSince1970: 1_795_348_800))
    }

    static func refusal(_ decode: () throws -> Forecast) -> String? {
        do {
            _ = try decode()
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: One Call 3.0

    @Test func oneCallKeepsEveryHourlyAndDailyValue() throws {
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        let hour = forecast.hourly[0]
        #expect(hour.pressure == 1012 && hour.dewPoint == 7.3 && hour.uvIndex == 0.4 && hour.cloudCover == 90 && hour.visibility == 8000)
        #expect(hour.humidity == 86 && hour.windGust == 9.8)
        // The second hour has no visibility and no gust: absent, not 0.
        #expect(forecast.hourly[1].visibility == nil && forecast.hourly[1].windGust == nil)
        #expect(forecast.hourly[1].pressure == 1012 && forecast.hourly[1].cloudCover == 80)
        let day = forecast.daily[0]
        #expect(day.windGust == 11.2 && day.humidity == 85 && day.pressure == 1012 && day.dewPoint == 7.2 && day.cloudCover == 90)
        #expect(day.uvIndex == 0.6)
    }

    @Test func oneCallImperialValuesArriveInCanonicalUnits() throws {
        let text = #"""
            {"lat": 40.71, "lon": -74.0, "timezone": "America/New_York", "timezone_offset": -18000,
             "current": {"dt": 1795348200, "temp": 50, "feels_like": 41, "pressure": 1020, "humidity": 50, "wind_speed": 10, "weather": []},
             "hourly": [{"dt": 1795348800, "temp": 50, "feels_like": 45, "pressure": 1019, "humidity": 70, "dew_point": 41, "uvi": 1.5,
                         "clouds": 40, "visibility": 10000, "wind_speed": 10, "wind_gust": 20, "weather": []},
                        {"dt": 1795352400, "temp": 49, "feels_like": 44, "humidity": 72, "wind_speed": 9, "weather": []}],
             "daily": [{"dt": 1795366800, "temp": {"min": 40, "max": 52}, "pressure": 1018, "humidity": 66, "dew_point": 32,
                        "wind_speed": 12, "wind_gust": 25, "clouds": 75, "uvi": 2.1, "weather": []}]}
            """#
        let forecast = try OpenWeatherDecoder(units: .imperial).oneCall(Self.body(.oneCall, text), city: .test("New York", country: "US", units: .imperial))
        let hour = forecast.hourly[0]
        #expect(abs(hour.dewPoint! - 5) < 1e-9)  // 41 °F
        #expect(abs(hour.windGust! - 8.9408) < 1e-9)  // 20 mph
        #expect(hour.pressure == 1019 && hour.humidity == 70 && hour.cloudCover == 40 && hour.uvIndex == 1.5 && hour.visibility == 10000)
        // An hour without them (bodies of other tools, older answers): nil, never 0.
        let bare = forecast.hourly[1]
        #expect(bare.pressure == nil && bare.dewPoint == nil && bare.uvIndex == nil && bare.cloudCover == nil && bare.visibility == nil)
        let day = forecast.daily[0]
        #expect(abs(day.dewPoint! - 0) < 1e-9)  // 32 °F
        #expect(abs(day.windGust! - 11.176) < 1e-9)  // 25 mph
        #expect(day.pressure == 1018 && day.humidity == 66 && day.cloudCover == 75)
    }

    // MARK: Free 2.5 pair

    func freePair(current: String? = nil, forecast: String? = nil) throws -> Forecast {
        let decoder = OpenWeatherDecoder(units: .metric)
        return try decoder.freePair(
            current: current.map { Self.body(.currentWeather, $0) } ?? TestPaths.response("weather-free.json", .currentWeather),
            forecast: forecast.map { Self.body(.fiveDayForecast, $0) } ?? TestPaths.response("forecast-free.json", .fiveDayForecast),
            city: .test("Tokyo", country: "JP"))
    }

    @Test func freeForecastStepsKeepTheirValues() throws {
        let forecast = try freePair()
        let step = forecast.hourly[0]
        #expect(step.pressure == 1016 && step.humidity == 60 && step.cloudCover == 20 && step.visibility == 10000 && step.windGust == 3)
        // No dew point in this API: from temperature and humidity, as for the current weather.
        #expect(step.dewPoint == DewPoint.celsius(temperature: 15, humidity: 60))
        #expect(abs(step.dewPoint! - 7.3) < 0.1)
        #expect(forecast.current.dewPoint == DewPoint.celsius(temperature: 16.2, humidity: 64))
        // And no UV index at all.
        #expect(forecast.hourly.allSatisfy { $0.uvIndex == nil })
    }

    /// `main.pressure` is sea level only "by default"; `main.sea_level`, where a body has
    /// it, is the sea-level pressure, in the steps and in the current weather alike.
    @Test func seaLevelPressureIsPreferred() throws {
        let steps = try String(contentsOf: TestPaths.fixture("forecast-free.json"), encoding: .utf8)
        let now = try String(contentsOf: TestPaths.fixture("weather-free.json"), encoding: .utf8)
        let raised = try freePair(current: now.replacing("\"sea_level\": 1017", with: "\"sea_level\": 1021"),
                                  forecast: steps.replacing("\"sea_level\": 1016", with: "\"sea_level\": 1020", maxReplacements: 1))
        #expect(raised.hourly[0].pressure == 1020 && raised.hourly[1].pressure == 1016)
        #expect(raised.current.pressure == 1021)
        let without = try freePair(current: now.replacing("\"sea_level\": 1017, ", with: ""),
                                   forecast: steps.replacing(/"sea_level": 1016,\s*/, with: ""))
        #expect(without.hourly.allSatisfy { $0.pressure == 1016 })
        #expect(without.current.pressure == 1017)
    }

    /// Days from 3-hourly steps: the strongest gust, and the mean (to one decimal) of
    /// humidity, pressure, dew point and cloud cover; today counts the current weather too,
    /// as it does for the temperature range.
    @Test func freeDaysTakeTheStrongestGustAndMeanReadings() throws {
        let data = try Data(contentsOf: TestPaths.fixture("forecast-free.json"))
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var list = try #require(document["list"] as? [[String: Any]])
        let humidities: [Double] = [50, 55, 60, 65, 70, 75, 80, 90, 95]
        let pressures: [Double] = [1010, 1011, 1012, 1013, 1014, 1015, 1020, 1021, 1023]
        let clouds: [Double] = [0, 10, 20, 30, 40, 50, 100, 100, 75]
        for index in list.indices {
            var main = try #require(list[index]["main"] as? [String: Any])
            main["humidity"] = humidities[index]
            main["sea_level"] = pressures[index]
            list[index]["main"] = main
            list[index]["clouds"] = ["all": clouds[index]]
        }
        list[7]["wind"] = ["speed": 5.5, "deg": 270]  // a step without a gust
        document["list"] = list
        let forecast = try freePair(forecast: String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
        #expect(forecast.daily.map(\.day) == ["2026-11-23", "2026-11-24"])

        // Today (Tokyo): steps 0…5 and the current weather (64 %, 1017 hPa, clear, no gust).
        let today = forecast.daily[0]
        #expect(today.windGust == 8)
        #expect(today.humidity == 62.7)  // (50+55+60+65+70+75+64) / 7 = 62.71
        #expect(today.pressure == 1013.1)  // (1010+…+1015+1017) / 7 = 1013.14
        #expect(today.cloudCover == 21.4)  // (0+10+20+30+40+50+0) / 7 = 21.43
        let dewPoints = zip([15.0, 13.5, 12.0, 11.0, 14.0, 19.0, 16.2], humidities.prefix(6) + [64]).map { DewPoint.celsius(temperature: $0, humidity: $1)! }
        #expect(today.dewPoint == (dewPoints.reduce(0, +) / 7 * 10).rounded() / 10)
        #expect(today.uvIndex == nil)

        // Tomorrow: steps 6…8; the step without a gust does not count as calm.
        let tomorrow = forecast.daily[1]
        #expect(tomorrow.windGust == 11)
        #expect(tomorrow.humidity == 88.3)  // (80+90+95) / 3
        #expect(tomorrow.pressure == 1021.3)  // (1020+1021+1023) / 3
        #expect(tomorrow.cloudCover == 91.7)  // (100+100+75) / 3
    }

    @Test func freeDaysWithoutAValueLeaveItOut() throws {
        let steps = try String(contentsOf: TestPaths.fixture("forecast-free.json"), encoding: .utf8)
        let forecast = try freePair(forecast: steps.replacing(/,\s*"gust": \d+/, with: "").replacing(/"clouds": \{\s*"all": 20\s*\},\s*/, with: ""))
        #expect(forecast.hourly.allSatisfy { $0.windGust == nil && $0.cloudCover == nil })
        #expect(forecast.daily[1].windGust == nil && forecast.daily[1].cloudCover == nil)
        // Today has the current weather's cloud cover (0 %, clear) and still no gust.
        #expect(forecast.daily[0].windGust == nil && forecast.daily[0].cloudCover == 0)
    }

    @Test func implausibleFreeForecastValuesAreRefusedWithTheirPath() throws {
        let steps = try String(contentsOf: TestPaths.fixture("forecast-free.json"), encoding: .utf8)
        let message = try #require(Self.refusal { try freePair(forecast: steps.replacing("\"sea_level\": 1016", with: "\"sea_level\": 1e300", maxReplacements: 1)) })
        #expect(message.contains("list[0].main.sea_level: 1e+300 is not a plausible pressure"), "\(message)")
    }

    // MARK: Open-Meteo

    @Test func openMeteoSampleValuesArriveAsSent() throws {
        let url = TestPaths.repository.appendingPathComponent("Samples/oslo-no/open-meteo-forecast.json")
        let data = try Data(contentsOf: url)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let hourly = try #require(json["hourly"] as? [String: Any])
        let daily = try #require(json["daily"] as? [String: Any])
        func series(_ block: [String: Any], _ name: String) throws -> [Double] { try #require(block[name] as? [Double], "\(name)") }
        let forecast = try OpenMeteoDecoder(units: .metric, describe: { "\($0)" })
            .forecast(RawResponse(endpoint: .openMeteoForecast, body: data, fetchedAt: Date()), city: .test("Oslo", country: "NO"))
        #expect(forecast.hourly.map(\.pressure) == (try series(hourly, "pressure_msl")))
        #expect(forecast.hourly.map(\.dewPoint) == (try series(hourly, "dew_point_2m")))
        #expect(forecast.hourly.map(\.uvIndex) == (try series(hourly, "uv_index")))
        #expect(forecast.hourly.map(\.cloudCover) == (try series(hourly, "cloud_cover")))
        #expect(forecast.hourly.map(\.visibility) == (try series(hourly, "visibility")))
        #expect(forecast.daily.map(\.windGust) == (try series(daily, "wind_gusts_10m_max")))
        // Open-Meteo's daily block has no humidity, pressure, dew point or cloud cover.
        #expect(forecast.daily.allSatisfy { $0.humidity == nil && $0.pressure == nil && $0.dewPoint == nil && $0.cloudCover == nil })
    }

    /// An imperial request gets °F and mph (converted), visibility in metres; a body that
    /// declares feet for it (as some answers to imperial requests do) is converted too.
    @Test(arguments: ["m", "ft"])
    func openMeteoImperialValuesArriveInCanonicalUnits(visibilityUnit: String) throws {
        let visibility = visibilityUnit == "ft" ? "32808.4" : "10000"
        let text = #"""
            {"latitude":40.7,"longitude":-74,"utc_offset_seconds":-18000,"timezone":"America/New_York",
             "current":{"time":1795348800,"temperature_2m":50,"weather_code":0},
             "hourly_units":{"time":"unixtime","temperature_2m":"°F","dew_point_2m":"°F","wind_gusts_10m":"mp/h","pressure_msl":"hPa","visibility":"\#(visibilityUnit)"},
             "hourly":{"time":[1795348800,1795352400],"temperature_2m":[50,49],"weather_code":[0,0],"pressure_msl":[1019.5,null],
                       "dew_point_2m":[41,null],"relative_humidity_2m":[70,80],"uv_index":[1.25,null],"cloud_cover":[40,null],
                       "visibility":[\#(visibility),null],"wind_gusts_10m":[20,null]},
             "daily_units":{"time":"unixtime","wind_gusts_10m_max":"mp/h"},
             "daily":{"time":[1795323600],"weather_code":[0],"temperature_2m_max":[52],"temperature_2m_min":[40],"wind_gusts_10m_max":[25]}}
            """#
        let forecast = try OpenMeteoDecoder(units: .imperial, describe: { "\($0)" })
            .forecast(Self.body(.openMeteoForecast, text), city: .test("New York", country: "US", units: .imperial))
        let hour = forecast.hourly[0]
        #expect(abs(hour.dewPoint! - 5) < 1e-9)
        #expect(abs(hour.windGust! - 8.9408) < 1e-9)
        #expect(abs(hour.visibility! - 10_000) < 0.01)
        #expect(hour.pressure == 1019.5 && hour.uvIndex == 1.25 && hour.cloudCover == 40)
        // Nulls are absent values; the dew point then follows from temperature and humidity.
        let next = forecast.hourly[1]
        #expect(next.pressure == nil && next.uvIndex == nil && next.cloudCover == nil && next.visibility == nil && next.windGust == nil)
        #expect(next.dewPoint == DewPoint.celsius(temperature: (49.0 - 32) * 5 / 9, humidity: 80))
        #expect(abs(forecast.daily[0].windGust! - 11.176) < 1e-9)
    }

    @Test func openMeteoBodiesWithoutTheNewVariablesStillDecode() throws {
        let text = #"{"latitude":59.9,"longitude":10.7,"utc_offset_seconds":3600,"timezone":"Europe/Oslo","current":{"time":1795348800,"temperature_2m":3,"weather_code":3},"hourly":{"time":[1795348800],"temperature_2m":[3],"weather_code":[3]},"daily":{"time":[1795302000],"weather_code":[3],"temperature_2m_max":[4],"temperature_2m_min":[1]}}"#
        let forecast = try OpenMeteoDecoder(units: .metric, describe: { "\($0)" }).forecast(Self.body(.openMeteoForecast, text), city: .test("Oslo", country: "NO"))
        let hour = try #require(forecast.hourly.first)
        #expect(hour.pressure == nil && hour.dewPoint == nil && hour.uvIndex == nil && hour.cloudCover == nil && hour.visibility == nil)
        #expect(forecast.daily.first?.windGust == nil)
    }

    /// One Call's fixture and Open-Meteo's Oslo sample with one value made impossible.
    @Test(arguments: [
        ("onecall-quirks.json", "\"pressure\": 1012, \"humidity\": 86", "\"pressure\": 5000, \"humidity\": 86",
         "hourly[0].pressure: 5000 is not a plausible pressure (expected 300…1200 hPa)"),
        ("onecall-quirks.json", "\"visibility\": 8000", "\"visibility\": -8000", "hourly[0].visibility: -8000 is not a plausible visibility"),
        ("onecall-quirks.json", "\"dew_point\": 7.2", "\"dew_point\": 720", "daily[0].dew_point: 720 is not a plausible temperature"),
        ("onecall-quirks.json", "\"wind_gust\": 11.2", "\"wind_gust\": 1e300", "daily[0].wind_gust: 1e+300 is not a plausible wind speed"),
        ("onecall-quirks.json", "\"clouds\": 90, \"pop\"", "\"clouds\": 900, \"pop\"", "daily[0].clouds: 900 is not a plausible percentage"),
        ("oslo-no", "\"pressure_msl\":[", "\"pressure_msl\":[9000,", "hourly.pressure_msl[0]: 9000 is not a plausible pressure (expected 300…1200 hPa)"),
        ("oslo-no", "\"uv_index\":[", "\"uv_index\":[-1,", "hourly.uv_index[0]: -1 is not a plausible UV index"),
        ("oslo-no", "\"cloud_cover\":[", "\"cloud_cover\":[101,", "hourly.cloud_cover[0]: 101 is not a plausible percentage"),
        ("oslo-no", "\"visibility\":[", "\"visibility\":[-5,", "hourly.visibility[0]: -5 is not a plausible visibility"),
        ("oslo-no", "\"dew_point_2m\":[", "\"dew_point_2m\":[1e300,", "hourly.dew_point_2m[0]: 1e+300 is not a plausible temperature"),
        ("oslo-no", "\"wind_gusts_10m_max\":[", "\"wind_gusts_10m_max\":[400,", "daily.wind_gusts_10m_max[0]: 400 is not a plausible wind speed"),
    ])
    func implausibleNewValuesAreRefusedWithTheirPath(source: String, original: String, replacement: String, expected: String) throws {
        let oneCall = source.hasPrefix("onecall")
        let url = oneCall ? TestPaths.fixture(source) : TestPaths.repository.appendingPathComponent("Samples/\(source)/open-meteo-forecast.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = text.replacing(original, with: replacement, maxReplacements: 1)
        #expect(changed != text, "\(original) not in \(source)")
        let message = try #require(Self.refusal {
            oneCall
                ? try OpenWeatherDecoder(units: .metric).oneCall(Self.body(.oneCall, changed), city: .test())
                : try OpenMeteoDecoder(units: .metric, describe: { "\($0)" }).forecast(Self.body(.openMeteoForecast, changed), city: .test("Oslo", country: "NO"))
        })
        #expect(message.contains(expected), "\(message)")
    }

    /// An impossible value in a new field stops its city, named, never the build: the
    /// other city is built and the run ends with 2, as for any refused body.
    @Test func anImplausibleNewValueFailsOnlyItsCity() async throws {
        let site = try TemporaryFolder.demoSite(items: ["isobar-open-meteo.yml", "Samples", "Templates", "Public", "Data"])
        defer { site.cleanup() }
        let file = site.url.appendingPathComponent("Samples/oslo-no/open-meteo-forecast.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let changed = text.replacing("\"pressure_msl\":[", with: "\"pressure_msl\":[12345,", maxReplacements: 1)
        #expect(changed != text)
        try Data(changed.utf8).write(to: file)
        let run = try await IsobarRun.launch(["build", "--config", "isobar-open-meteo.yml"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("hourly.pressure_msl[0]: 12345 is not a plausible pressure"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site-open-meteo/lisbon-pt/forecast.json").path))
    }

    @Test func openMeteoRequestsTheNewVariables() {
        let request = OpenMeteoRequests(settings: OpenMeteoSettings(), language: "en", forecastHours: 76).request(.openMeteoForecast, for: .test())
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let hourly = Set((items.first { $0.name == "hourly" }?.value ?? "").split(separator: ",").map(String.init))
        let daily = Set((items.first { $0.name == "daily" }?.value ?? "").split(separator: ",").map(String.init))
        #expect(hourly.isSuperset(of: ["pressure_msl", "dew_point_2m", "uv_index", "cloud_cover", "visibility", "wind_gusts_10m", "relative_humidity_2m"]))
        #expect(daily.contains("wind_gusts_10m_max"))
    }

    // MARK: forecast.json

    /// The file for scripts carries every new value, under the model's names, and reads
    /// back as what was written.
    @Test func forecastJSONCarriesTheNewValues() throws {
        struct Document: Decodable { var forecast: Forecast }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let oslo = try OpenMeteoDecoder(units: .metric, describe: { "\($0)" })
            .forecast(Fixtures.sample("oslo-no", .openMeteoForecast), city: .test("Oslo", country: "NO"))
        let lod = try freePair()
        for forecast in [oslo, lod] {
            let data = try ForecastJSON.data(forecast, slug: "x")
            // Read back and written again, it is the same file (values are written to six
            // decimals, so a computed dew point reads back rounded, not bit for bit).
            #expect(try ForecastJSON.data(decoder.decode(Document.self, from: data).forecast, slug: "x") == data)
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let document = try #require(json["forecast"] as? [String: Any])
            let hour = try #require((document["hourly"] as? [[String: Any]])?.first)
            let day = try #require((document["daily"] as? [[String: Any]])?.first)
            #expect(hour["pressure"] as? Double == forecast.hourly[0].pressure)
            #expect(hour["dewPoint"] as? Double == forecast.hourly[0].dewPoint.map { (($0 * 1e6).rounded() / 1e6) })
            #expect(hour["cloudCover"] as? Double == forecast.hourly[0].cloudCover)
            #expect(hour["visibility"] as? Double == forecast.hourly[0].visibility)
            #expect(hour["uvIndex"] as? Double == forecast.hourly[0].uvIndex)
            #expect(day["windGust"] as? Double == forecast.daily[0].windGust)
            #expect(day["humidity"] as? Double == forecast.daily[0].humidity)
            #expect(day["pressure"] as? Double == forecast.daily[0].pressure)
        }
        // The free API has no UV index: the key is left out, never 0.
        let free = String(decoding: try ForecastJSON.data(lod, slug: "x"), as: UTF8.self)
        #expect(!free.contains("\"uvIndex\""))
        #expect(free.contains("\"pressure\":1016") && free.contains("\"visibility\":10000"))
    }
}
