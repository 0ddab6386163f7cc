import FlyingFox
import Foundation
import Testing
@testable import IsobarCore

@Suite struct OpenMeteoDecoderTests {
    let decoder = OpenMeteoDecoder(units: .metric, describe: { "wmo \($0)" })

    @Test func forecastFromTheRecordedSample() throws {
        let forecast = try decoder.forecast(Fixtures.sample("oslo-no", .openMeteoForecast), city: .test("Oslo", country: "NO"))
        #expect(forecast.location.timeZoneIdentifier == "Europe/Oslo")
        #expect(forecast.location.utcOffsetSeconds == 3600)
        #expect(forecast.hourly.count == 48)
        #expect(forecast.daily.count == 8)
        #expect(forecast.daily[0].day == "2026-11-22")  // daily times are local midnights
        #expect(forecast.alerts.isEmpty)
        #expect(forecast.current.conditions[0].description == "wmo 3")
        #expect(forecast.current.conditions[0].icon == "04d")
        #expect(forecast.current.sunrise != nil)  // taken from today's daily entry
        #expect(forecast.hourly.allSatisfy { (0...1).contains($0.precipitationChance ?? -1) })
        #expect(forecast.source.api == "open-meteo")
        let snowy = try #require(forecast.hourly.first { $0.snow != nil })
        #expect((snowy.condition?.code ?? 0) / 100 == 6)  // WMO 71/73 on the snow scale
        let air = try #require(try decoder.airQuality(Fixtures.sample("oslo-no", .openMeteoAirQuality)))
        #expect(air.index == 1)  // EAQI 18
        #expect(air.components["no2"] != nil && air.components["o3"] != nil)
    }

    /// Issue 17, item 1: the API's default form (ISO 8601 local times, km/h) and the older
    /// form (`current_weather`, names without underscores) give the forecast the Unix-time
    /// sample gives. Both fixtures were made from the Oslo sample (6 hours, 3 days).
    @Test(arguments: ["open-meteo-iso8601.json", "open-meteo-legacy.json"])
    func otherBodyFormsReadAsTheSample(fixture: String) throws {
        let city = CityConfig.test("Oslo", country: "NO")
        let sample = try decoder.forecast(Fixtures.sample("oslo-no", .openMeteoForecast), city: city)
        let other = try decoder.forecast(TestPaths.response(fixture, .openMeteoForecast), city: city)
        #expect(other.current.time == sample.current.time)
        #expect(other.current.temperature == sample.current.temperature)
        #expect(abs(other.current.windSpeed! - sample.current.windSpeed!) < 0.03)  // km/h to one decimal
        #expect(other.current.windDirection == sample.current.windDirection)
        #expect(other.current.conditions == sample.current.conditions)
        #expect(other.hourly.map(\.time) == Array(sample.hourly.prefix(6).map(\.time)))
        #expect(other.hourly.map(\.temperature) == Array(sample.hourly.prefix(6).map(\.temperature)))
        #expect(zip(other.hourly, sample.hourly).allSatisfy { abs($0.windSpeed! - $1.windSpeed!) < 0.03 })
        #expect(other.hourly.map(\.condition) == Array(sample.hourly.prefix(6).map(\.condition)))
        #expect(other.daily.map(\.day) == Array(sample.daily.prefix(3).map(\.day)))
        #expect(other.daily.map(\.time) == Array(sample.daily.prefix(3).map(\.time)))
        #expect(other.daily.map(\.sunrise) == Array(sample.daily.prefix(3).map(\.sunrise)))
        #expect(other.current.sunrise == sample.current.sunrise)
        if fixture == "open-meteo-iso8601.json" {
            #expect(other.current.pressure == sample.current.pressure)
            #expect(other.current.humidity == sample.current.humidity)
        }
    }

    /// ISO times are wall-clock times of the body's zone: across a DST change each hour
    /// keeps its own offset (Oslo, 2026-03-29: 01:00 CET, then 03:00 CEST).
    @Test func isoTimesFollowTheZoneAcrossDST() throws {
        let body = #"{"latitude":59.9,"longitude":10.7,"utc_offset_seconds":3600,"timezone":"Europe/Oslo","current":{"time":"2026-03-29T01:00","temperature_2m":2,"weather_code":0},"hourly":{"time":["2026-03-29T01:00","2026-03-29T03:00"],"temperature_2m":[2,3],"weather_code":[0,0]}}"#
        let forecast = try decoder.forecast(RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: Date()), city: .test())
        #expect(forecast.hourly.map(\.time.timeIntervalSince1970) == [1_774_742_400, 1_774_746_000])
    }

    @Test(arguments: [
        // Hours without `current` build (PartialBodyTests); days alone have no "now".
        (#"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"daily":{"time":[1795305600],"temperature_2m_max":[6],"temperature_2m_min":[1]}}"#,
         "has neither current nor hourly: nothing to show as now"),
        (#"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"current":{"time":"yesterday","temperature_2m":1,"weather_code":0}}"#,
         #"current.time: "yesterday" is not a time in Unix seconds or ISO 8601 (2024-06-01T14:00)"#),
        (#"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"current":{"time":"2026-02-30T10:00","temperature_2m":1,"weather_code":0}}"#,
         #"current.time: "2026-02-30T10:00" is not a time"#),
    ])
    func unusableFormsSayWhatWasExpected(body: String, expected: String) {
        do {
            _ = try decoder.forecast(RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: Date()), city: .test())
            Issue.record("decoded \(body)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }

    /// Issue 17, item 3: a series from local midnight (and days from yesterday) starts
    /// on the page at the hour holding the data time (14:00 at 14:20) and at today.
    @Test func pastHoursAndDaysAreDropped() throws {
        let midnight = 1_795_305_600  // 2026-11-22 00:00 UTC
        let hours = (0..<48).map { String(midnight + $0 * 3600) }.joined(separator: ",")
        let temperatures = (0..<48).map { String($0 % 10) }.joined(separator: ",")
        let codes = Array(repeating: "0", count: 48).joined(separator: ",")
        let body = #"{"latitude":51.5,"longitude":0,"utc_offset_seconds":0,"timezone":"GMT","#
            + #""current":{"time":\#(midnight + 14 * 3600 + 20 * 60),"temperature_2m":4,"weather_code":0},"#
            + #""hourly":{"time":[\#(hours)],"temperature_2m":[\#(temperatures)],"weather_code":[\#(codes)]},"#
            + #""daily":{"time":[\#(midnight - 86_400),\#(midnight),\#(midnight + 86_400)],"weather_code":[0,0,0],"temperature_2m_max":[5,6,7],"temperature_2m_min":[1,2,3]}}"#
        let city = CityConfig.test()
        let fetched = CityResponses(city: city, responses: [.openMeteoForecast: RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: Date(timeIntervalSince1970: Double(midnight + 14 * 3600 + 25 * 60)))])
        let forecast = try Normalizer().forecast(from: fetched)
        #expect(forecast.hourly.first?.time == Date(timeIntervalSince1970: Double(midnight + 14 * 3600)))
        #expect(forecast.hourly.count == 34)
        #expect(forecast.daily.map(\.day) == ["2026-11-22", "2026-11-23"])
    }

    /// Issue 17, item 2: what a body does not carry is not shown, never as 0; a ground-level
    /// pressure stands in for the sea-level one only under its own label.
    @Test func absentValuesAreNotShown() throws {
        let body = #"{"latitude":59.9,"longitude":10.7,"utc_offset_seconds":3600,"timezone":"Europe/Oslo","current":{"time":1795348800,"temperature_2m":3,"weather_code":53,"surface_pressure":993.4},"hourly":{"time":[1795348800,1795352400],"temperature_2m":[3,2],"weather_code":[53,53]}}"#
        let city = CityConfig.test("Oslo", country: "NO")
        let forecast = try decoder.forecast(RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: Date()), city: city)
        #expect(forecast.current.pressure == nil && forecast.current.cloudCover == nil && forecast.current.humidity == nil)
        #expect(forecast.current.feelsLike == nil && forecast.current.windSpeed == nil && forecast.current.dewPoint == nil)
        #expect(forecast.current.surfacePressure == 993.4)
        #expect(forecast.hourly.allSatisfy { $0.precipitationChance == nil && $0.windSpeed == nil })
        let templates = try TemplateSet.load(from: TestPaths.repository.appendingPathComponent("Templates"))
        let page = try templates.renderBody("city", try Fixtures.presenter().cityPage(forecast, city: city, places: [], root: "../")).text
        for absent in ["<dt>Pressure</dt>", "<dt>Cloud cover</dt>", "<dt>Humidity</dt>", "Feels like", "0 %", "0 hPa", "0 m/s", "class=\"wind\""] {
            #expect(!page.contains(absent), "\(absent)")
        }
        #expect(page.contains(#"<dt>Pressure at ground level</dt><dd><bdi dir="ltr">993 hPa</bdi></dd>"#), "\(page)")
        #expect(page.contains("Temperature from 2° to 3°."), "no claim about a chance of rain the data does not have")
    }

    @Test func imperialIsConvertedToCanonicalUnits() throws {
        let body = #"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"timezone":"GMT","current":{"time":1795348800,"temperature_2m":50,"weather_code":0,"wind_speed_10m":10,"rain":0.1}}"#
        let forecast = try OpenMeteoDecoder(units: .imperial, describe: { "\($0)" })
            .forecast(RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: Date()), city: .test(units: .imperial))
        #expect(abs(forecast.current.temperature - 10) < 1e-9)
        #expect(abs(forecast.current.windSpeed! - 4.4704) < 1e-9)
        #expect(abs((forecast.current.rainLastHour ?? 0) - 2.54) < 1e-9)
        #expect(forecast.hourly.isEmpty && forecast.daily.isEmpty)
        #expect(forecast.current.conditions[0].icon == "01d")
    }

    @Test func errorBodiesAndMissingResults() throws {
        let error = RawResponse(endpoint: .openMeteoForecast, body: Data(#"{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 91.0."}"#.utf8), fetchedAt: Date())
        #expect(throws: IsobarError.self) { try decoder.forecast(error, city: .test()) }
        do {
            _ = try decoder.forecast(error, city: .test())
        } catch let problem as IsobarError {
            #expect(problem.message.contains("Latitude must be in range"))
        }
        let none = RawResponse(endpoint: .openMeteoGeocode, body: Data(#"{"generationtime_ms":0.5}"#.utf8), fetchedAt: Date())
        #expect(try decoder.geocode(none).isEmpty)
        let found = try decoder.geocode(Fixtures.sample("lisbon-pt", .openMeteoGeocode))
        #expect(found.first?.country == "PT")
    }

    @Test(arguments: [
        (0, 800, "01d"), (1, 801, "02d"), (2, 802, "03d"), (3, 804, "04d"), (45, 741, "50d"), (48, 741, "50d"),
        (51, 300, "09d"), (55, 302, "09d"), (56, 511, "13d"), (61, 500, "10d"), (65, 502, "10d"), (67, 511, "13d"),
        (71, 600, "13d"), (75, 602, "13d"), (77, 600, "13d"), (80, 520, "09d"), (82, 522, "09d"), (85, 620, "13d"),
        (86, 621, "13d"), (95, 211, "11d"), (96, 201, "11d"), (99, 202, "11d"),
    ])
    func wmoCodesMapOntoTheIconSet(wmo: Int, code: Int, icon: String) {
        let condition = WMOWeatherCode.condition(wmo, isDay: true, describe: { "d\($0)" })
        #expect(condition.code == code)
        #expect(condition.icon == icon)
        #expect(condition.description == "d\(wmo)")
        #expect(WMOWeatherCode.condition(wmo, isDay: false, describe: { _ in "" }).icon == String(icon.dropLast()) + "n")
    }

    @Test func everyWMOCodeHasWordsInBothLanguages() throws {
        for language in ["en", "de"] {
            let strings = try Fixtures.strings(language)
            for code in WMOWeatherCode.table.keys {
                #expect(strings.table["wmo_\(code)"] != nil, "\(language): wmo_\(code)")
            }
        }
        #expect(WMOWeatherCode.condition(42, isDay: true, describe: { _ in "?" }).icon == "")  // unknown → unknown.svg
    }

    @Test(arguments: [(0.0, 1), (19.9, 1), (20.0, 2), (39.0, 2), (40.0, 3), (59.9, 3), (60.0, 4), (80.0, 5), (150.0, 5)])
    func europeanAQIOnTheOneToFiveScale(value: Double, index: Int) {
        #expect(OpenMeteoDecoder.airQualityIndex(european: value) == index)
    }
}

/// `provider: open-meteo` through the real binary against a loopback stand-in.
@Suite(.serialized) struct OpenMeteoFetchTests {
    @Test func fetchesGeocodesCachesAndAttributes() async throws {
        let log = OpenMeteoStandIn.Log()
        let (server, task, port) = try await OpenMeteoStandIn.serve(log)
        defer { task.cancel(); Task { await server.stop() } }
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        defer { site.cleanup() }
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: open-meteo
            alerts: off
            units: imperial
            open_meteo:
              base_url: http://127.0.0.1:\(port)
              geocoding_url: http://127.0.0.1:\(port)
              air_quality_url: http://127.0.0.1:\(port)
            openweather: { timeout: 2m, connect_timeout: 1m }  # generous: a loaded CI machine answered after 15 s
            cities:
              - { name: Oslo, country: "NO", lat: 59.9127, lon: 10.7461 }
              - { name: Lisbon, country: PT }
            """, to: "isobar.yml")
        let first = try await IsobarRun.launch(["build"], in: site.url)  // no key needed
        #expect(first.status == 0, "\(first.stderr)")
        #expect(await log.count("/v1/search") == 1, "\(first.stderr)")
        #expect(await log.count("/v1/forecast") == 2, "\(first.stderr)")
        #expect(await log.count("/v1/air-quality") == 2, "\(first.stderr)")
        let query = try #require(await log.query("/v1/forecast"))
        #expect(query["timezone"] == "auto")
        #expect(query["timeformat"] == "unixtime")
        #expect(query["forecast_days"] == "8")
        #expect(query["forecast_hours"] == "76", "past 72 hours after the data time, for the history's 72 h check")
        #expect(query["temperature_unit"] == "fahrenheit")
        #expect(query["wind_speed_unit"] == "mph")
        #expect(query["precipitation_unit"] == "inch")
        #expect(query["hourly"]?.contains("precipitation_probability") == true)
        for variable in ["pressure_msl", "dew_point_2m", "uv_index", "cloud_cover", "visibility"] {
            #expect(query["hourly"]?.split(separator: ",").contains(Substring(variable)) == true, "\(variable)")
        }
        #expect(query["daily"]?.split(separator: ",").contains("wind_gusts_10m_max") == true)
        let page = try String(contentsOf: site.url.appendingPathComponent("_site/oslo-no/index.html"), encoding: .utf8)
        #expect(page.contains("href=\"https://open-meteo.com/\""))
        #expect(page.contains("CC BY 4.0"))
        #expect(!page.contains("class=\"alerts\""))
        #expect(!page.contains("openweathermap.org"))

        // Cached within max_age: nothing is sent; offline: nothing is sent either.
        let before = await log.count()
        #expect(try await IsobarRun.launch(["build"], in: site.url).status == 0)
        #expect(try await IsobarRun.launch(["build", "--offline"], in: site.url).status == 0)
        #expect(await log.count() == before)
    }

    @Test func anErrorBodyFailsTheCityWithItsReason() async throws {
        let log = OpenMeteoStandIn.Log()
        let (server, task, port) = try await OpenMeteoStandIn.serve(log)
        defer { task.cancel(); Task { await server.stop() } }
        await log.setFailing(true)
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        defer { site.cleanup() }
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: open-meteo
            alerts: off
            open_meteo: { base_url: "http://127.0.0.1:\(port)", air_quality_url: "http://127.0.0.1:\(port)" }
            cities:
              - { name: Oslo, country: "NO", lat: 59.9127, lon: 10.7461 }
            """, to: "isobar.yml")
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("Open-Meteo refused the request (HTTP 400: Cannot initialize WeatherVariable"), "\(run.stderr)")
        #expect(await log.count("/v1/forecast") == 1)  // 400 is not retried
    }
}
