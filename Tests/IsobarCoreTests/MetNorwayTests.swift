import Foundation
import Testing
@testable import IsobarCore

/// MET Norway's Locationforecast 2.0 `complete` body, read from recorded responses
/// (Fixtures/met-norway/, whose README names the documentation each shape follows).
@Suite struct MetNorwayTests {
    let decoder = MetNorwayDecoder(describe: { "owm_\($0)" })
    static let bergen = CityConfig(
        name: "Bergen", country: "NO", state: nil, latitude: 60.3913, longitude: 5.3221, units: .metric,
        slug: "bergen-no", timeZone: "Europe/Oslo")

    static func response(_ body: String, file: String = "Samples/bergen-no/met-norway-forecast.json") -> RawResponse {
        RawResponse(endpoint: .metNorwayForecast, body: Data(body.utf8), fetchedAt: Date(timeIntervalSince1970: 1_795_348_800),
                    file: URL(fileURLWithPath: file))
    }

    static func utc(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

    /// The fixture's values, worked out by hand (Europe/Oslo is UTC+1 in November): four
    /// hourly steps from 21:00 UTC, then 6-hourly ones; the 22nd local has the first two
    /// steps, the 23rd the rest but the last (01:00 on the 24th, which the data stops short of).
    @Test func decodesTheFixtureAsWorkedOutByHand() throws {
        let forecast = try decoder.forecast(TestPaths.response("met-norway/complete.json", .metNorwayForecast), city: Self.bergen)
        #expect(forecast.source.api == "met-norway")
        #expect(forecast.location.latitude == 60.3913 && forecast.location.longitude == 5.3221)
        #expect(forecast.location.timeZoneIdentifier == "Europe/Oslo" && forecast.location.utcOffsetSeconds == 3600)

        let now = forecast.current
        #expect(now.time == (try Self.utc("2026-11-22T21:00:00Z")))
        #expect(now.temperature == 5.0 && now.pressure == 1002.3 && now.humidity == 87 && now.dewPoint == 3.1)
        #expect(now.cloudCover == 90 && now.uvIndex == 0)
        #expect(now.windSpeed == 7.5 && now.windGust == 12.4 && now.windDirection == 225)
        #expect(now.feelsLike == nil && now.visibility == nil)
        #expect(now.rainLastHour == nil)  // the body has the coming hour's, shown in the first hourly row
        #expect(now.conditions.map(\.code) == [520] && now.conditions.first?.icon == "09n")
        #expect(now.conditions.first?.description == "owm_520")

        let hours = forecast.hourly
        #expect(hours.map(\.time.timeIntervalSince1970) == [1_795_381_200, 1_795_384_800, 1_795_388_400, 1_795_392_000])
        #expect(hours.allSatisfy { $0.stepHours == 1 })
        #expect(hours.map(\.temperature) == [5.0, 4.6, 4.0, 3.0])
        #expect(hours.map(\.precipitationChance) == [0.6, 0.1, 0.9, 0.05])
        #expect(hours.map(\.rain) == [0.4, nil, nil, nil])
        #expect(hours.map(\.snow) == [nil, nil, 1.2, nil])  // sleet counts as snow
        #expect(hours.map { $0.condition?.code } == [520, 804, 611, 741])
        #expect(hours.map { $0.condition?.icon } == ["09n", "04n", "13n", "50n"])  // cloudy, sleet, fog: night by the sun
        #expect(hours.map(\.dewPoint) == [3.1, 2.9, 3.0, 1.9])

        let days = forecast.daily
        #expect(days.map(\.day) == ["2026-11-22", "2026-11-23"])
        // The 22nd: 22:00 and 23:00 local, and the current observation.
        #expect(days[0].temperatureMin == 4.6 && days[0].temperatureMax == 5.0)
        #expect(days[0].rain == 0.4 && days[0].snow == nil && days[0].precipitationChance == 0.6)
        #expect(days[0].condition?.code == 520 && days[0].condition?.icon == "09d")
        // The 23rd: 00:00 (an hour of sleet), 01:00 (its 6 hours, to the next step), 07:00,
        // 13:00, 19:00 (6 hours each). The 6-hour periods' extremes count: −1.5 … 4.0.
        #expect(days[1].temperatureMin == -1.5 && days[1].temperatureMax == 4.0)
        #expect(days[1].snow == 9.2 && days[1].rain == nil)  // 1.2 + 2.0 + 6.0
        #expect(days[1].precipitationChance == 0.95)
        #expect(days[1].condition?.code == 611)  // sleet, the most significant (ConditionSeverity)
        #expect(days[1].uvIndex == 0.3 && days[1].windGust == 15.8)
        // No sun or moon in the body: left to ComputedSky.
        #expect(days.allSatisfy { $0.sunrise == nil && $0.moonPhase == nil })
    }

    @Test func theNormalizerComputesSunAndMoonForItsDays() throws {
        var response = try TestPaths.response("met-norway/complete.json", .metNorwayForecast)
        response.fetchedAt = try Self.utc("2026-11-22T20:55:00Z")  // the fixture's first step is 21:00
        let responses = [Endpoint.metNorwayForecast: response]
        let forecast = try Normalizer().forecast(from: CityResponses(city: Self.bergen, responses: responses))
        #expect(forecast.daily.allSatisfy { $0.sunrise != nil && $0.sunset != nil && $0.moonPhase != nil })
        #expect(forecast.current.conditions.first?.description == "owm_520")  // the strings' key, for Present
    }

    /// The demo's recorded response: hourly for 60 hours, then 6-hourly to 2 December.
    @Test func theDemoSampleGivesTwoAndAHalfDaysOfHoursAndNineDays() throws {
        let forecast = try decoder.forecast(Fixtures.sample("bergen-no", .metNorwayForecast), city: Self.bergen)
        #expect(forecast.hourly.count == 61)
        #expect(forecast.hourly.allSatisfy { $0.stepHours == 1 && $0.condition != nil })
        #expect(forecast.daily.first?.day == "2026-11-22")
        #expect(forecast.daily.last?.day == "2026-12-01")  // the 2nd is cut short by the data
        #expect(forecast.daily.count == 10)
        let codes = Set(forecast.hourly.compactMap { $0.condition?.code } + forecast.daily.compactMap { $0.condition?.code })
        #expect(codes.isSuperset(of: [741, 611, 612, 620, 201]))  // fog, sleet, sleet showers, snow showers, thunder
    }

    /// Every documented symbol, with each variant it comes in, has an entry in the one
    /// table, an icon the theme has and words in en.yml; the table has no other symbol.
    @Test func everyDocumentedSymbolHasAnIconAndWords() throws {
        let csv = try String(contentsOf: TestPaths.fixture("met-norway/symbols.csv"), encoding: .utf8)
        let documented = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        #expect(documented.count == 41)
        let icons = Set(try FileManager.default.contentsOfDirectory(atPath: TestPaths.repository.appendingPathComponent("Public/icons").path))
        let strings = try Fixtures.strings("en")
        for row in documented {
            let name = String(row[0])
            #expect(MetNorwaySymbol.table[name] != nil, "\(name) is not in MetNorwaySymbol.table")
            let codes = row[1] == "1" ? ["\(name)_day", "\(name)_night", "\(name)_polartwilight"] : [name]
            for code in codes {
                for sunIsUp in [true, false] {
                    let condition = MetNorwaySymbol.condition(code, sunIsUp: sunIsUp, describe: { "owm_\($0)" })
                    #expect(icons.contains(condition.icon + ".svg"), "\(code): no icon \(condition.icon).svg")
                    #expect(condition.textKey == "owm_\(condition.code)", "\(code)")
                    #expect(strings.table[condition.textKey] != nil, "\(code): no \(condition.textKey) in en.yml")
                }
            }
        }
        #expect(Set(MetNorwaySymbol.table.keys) == Set(documented.map { String($0[0]) }))
    }

    @Test(arguments: [
        ("clearsky_day", false, "01d"), ("clearsky_night", true, "01n"), ("fair_polartwilight", true, "02n"),
        ("cloudy", true, "04d"), ("cloudy", false, "04n"), ("heavysnow", true, "13d"),
        ("lightssnowshowersandthunder_day", false, "11d"), ("no-such-symbol", true, ""),
    ])
    func dayOrNightFromTheVariantElseTheSun(symbol: String, sunIsUp: Bool, icon: String) {
        #expect(MetNorwaySymbol.condition(symbol, sunIsUp: sunIsUp, describe: { "\($0)" }).icon == icon)
    }

    @Test func amountsSplitByWhatTheSymbolSaysFalls() {
        #expect(MetNorwaySymbol.split(1.5, symbol: "rainshowers_day", celsius: -2) == (1.5, nil))
        #expect(MetNorwaySymbol.split(1.5, symbol: "heavysleetandthunder", celsius: 3) == (nil, 1.5))
        #expect(MetNorwaySymbol.split(1.5, symbol: "lightsnow", celsius: 3) == (nil, 1.5))
        #expect(MetNorwaySymbol.split(0.1, symbol: "cloudy", celsius: 0) == (nil, 0.1))
        #expect(MetNorwaySymbol.split(0.1, symbol: "cloudy", celsius: 0.5) == (0.1, nil))
        #expect(MetNorwaySymbol.split(0, symbol: "rain", celsius: 5) == (nil, nil))
        #expect(MetNorwaySymbol.split(nil, symbol: "rain", celsius: 5) == (nil, nil))
    }

    /// Outside the Nordic area `complete` has no probabilities: the chance is absent, not 0.
    @Test func valuesTheBodyLacksStayAbsent() throws {
        let body = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-1.869,51.6598,83]},"properties":{"meta":{"updated_at":"2026-06-01T13:15:43Z"},"timeseries":[{"time":"2026-06-01T17:00:00Z","data":{"instant":{"details":{"air_temperature":17.9,"relative_humidity":79.4}},"next_1_hours":{"summary":{"symbol_code":"lightrain"},"details":{"precipitation_amount":0.2}}}}]}}"#
        let city = CityConfig(name: "Cirencester", country: "GB", state: nil, latitude: nil, longitude: nil, units: .metric,
                              slug: "cirencester-gb", timeZone: "Europe/London")
        let forecast = try decoder.forecast(Self.response(body), city: city)
        #expect(forecast.hourly.count == 1)
        #expect(forecast.hourly[0].precipitationChance == nil && forecast.hourly[0].rain == 0.2)
        #expect(forecast.hourly[0].windSpeed == nil && forecast.hourly[0].pressure == nil)
        #expect(forecast.current.dewPoint != nil)  // from temperature and humidity
        #expect(forecast.location.timeZoneIdentifier == "Europe/London")
    }

    @Test(arguments: [
        ("", "MET Norway's forecast for Bergen is empty"),
        ("<html><body>502 Bad Gateway</body></html>", "MET Norway's forecast for Bergen: the response is HTML, not JSON"),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[5.3,60.4]}}"#, "properties is missing"),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[5.3,60.4]},"properties":{"meta":{"updated_at":"x"},"timeseries":[{"time":"2026-11-22T12:00:00Z","data":{"instant":{"details":{"air_temperature":1e300}}}}]}}"#,
         "properties.timeseries[0].data.instant.details.air_temperature: 1e+300 is not a plausible temperature (expected -100…100 °C)"),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[5.3,60.4]},"properties":{"meta":{"updated_at":"x"},"timeseries":[{"time":"2026-11-22T12:00:00Z","data":{"instant":{"details":{"air_temperature":5,"relative_humidity":140}}}}]}}"#,
         "relative_humidity: 140 is not a plausible percentage"),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[5.3,60.4]},"properties":{"meta":{"updated_at":"x"},"timeseries":[{"time":"yesterday","data":{"instant":{"details":{"air_temperature":5}}}}]}}"#,
         #"properties.timeseries[0].time: "yesterday" is not an ISO 8601 time"#),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[5.3,160.4]},"properties":{"meta":{"updated_at":"x"},"timeseries":[]}}"#,
         "geometry.coordinates: [5.3, 160.4] is not [longitude, latitude, altitude]"),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[5.3,60.4]},"properties":{"meta":{"updated_at":"x"},"timeseries":[]}}"#,
         "properties.timeseries: no step with an air_temperature"),
    ])
    func badBodiesNameTheCityTheFileAndTheFault(body: String, expected: String) throws {
        let error = try #require(throws: IsobarError.self) { try decoder.forecast(Self.response(body), city: Self.bergen) }
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(error.message.contains("Bergen"), "\(error.message)")
        #expect(error.path?.hasSuffix("Samples/bergen-no/met-norway-forecast.json") == true)
        #expect(error.step == .normalize)
    }

    /// The body names no zone: a city without `timezone:` is refused with the line to add.
    @Test func aCityWithoutATimeZoneIsToldWhichToAdd() throws {
        var city = Self.bergen
        city.timeZone = nil
        let error = try #require(throws: IsobarError.self) {
            try decoder.forecast(TestPaths.response("met-norway/complete.json", .metNorwayForecast), city: city)
        }
        #expect(error.message.contains("Bergen (NO) has no `timezone:`"), "\(error.message)")
        #expect(error.path?.hasSuffix("met-norway/complete.json") == true)
        let hint = try #require(error.hint)
        #expect(hint.contains("add `timezone:`"), "\(hint)")
        if CountryZones.system() != nil { #expect(hint.contains("`timezone: Europe/Oslo`, NO's only zone"), "\(hint)") }
    }

    /// A snapshot folder with only met-norway-forecast.json is a city's data, for the
    /// snapshot provider and for the history's import alike.
    @Test func aMetNorwaySnapshotIsAForecast() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let body = try String(contentsOf: TestPaths.fixture("met-norway/complete.json"), encoding: .utf8)
        _ = try folder.write(body, to: "bergen-no/met-norway-forecast.json")
        let fetched = try await SnapshotProvider(directory: folder.url).fetch(Self.bergen)
        #expect(fetched[.metNorwayForecast] != nil)
        let entry = try HistoryImport(cities: [Self.bergen]).entry(Self.bergen, from: ResponseStore(root: folder.url))
        #expect(entry?.city == "bergen-no")
    }
}

/// The MET Norway demo through the real binary.
@Suite struct MetNorwayDemoTests {
    @Test func buildsTheBergenPage() async throws {
        let site = try TemporaryFolder.demoSite(items: ["isobar-met-norway.yml", "Samples", "Templates", "Public", "Data"])
        defer { site.cleanup() }
        let environment = ["SOURCE_DATE_EPOCH": "1795348800"]
        let check = try await IsobarRun.launch(["check", "--config", "isobar-met-norway.yml"], in: site.url, environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
        let build = try await IsobarRun.launch(["build", "--config", "isobar-met-norway.yml"], in: site.url, environment: environment)
        #expect(build.status == 0, "\(build.stderr)")
        let html = try String(contentsOf: site.url.appendingPathComponent("_site-met-norway/bergen-no/index.html"), encoding: .utf8)
        #expect(html.contains("<a href=\"https://api.met.no/\">MET Norway</a>"))
        #expect(html.contains("<a href=\"https://api.met.no/doc/License\">CC BY 4.0</a>"))
        #expect(html.components(separatedBy: "<tr><th scope=\"row\">").count - 1 == 48)
        #expect(html.components(separatedBy: "<span class=\"day-name\">").count - 1 == 10)
        #expect(html.contains("datetime=\"2026-11-22T13:00+01:00\""))  // 12:00 UTC in Bergen's zone
        #expect(html.contains("Rain showers") && html.contains("Sleet showers") && html.contains("Fog"))
        #expect(html.contains("icons/09d.svg") && html.contains("icons/13n.svg"))
        #expect(html.contains("Sunrise") && html.contains("Moonrise"))
        let data = try Data(contentsOf: site.url.appendingPathComponent("_site-met-norway/bergen-no/forecast.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let forecast = try #require(json["forecast"] as? [String: Any])
        #expect((forecast["source"] as? [String: Any])?["api"] as? String == "met-norway")
    }
}
