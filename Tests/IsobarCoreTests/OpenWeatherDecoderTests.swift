import Foundation
import Testing
@testable import IsobarCore

@Suite struct OpenWeatherDecoderTests {
    let decoder = OpenWeatherDecoder(units: .metric)

    @Test func oneCallWithEveryQuirk() throws {
        let forecast = try decoder.oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        #expect(forecast.location.timeZoneIdentifier == "Europe/London")
        #expect(forecast.location.latitude == 51.5073)
        #expect(forecast.current.temperature == 9.5)
        // Several entries in weather[]: all kept, the first is primary.
        #expect(forecast.current.conditions.map(\.code) == [300, 701])
        // rain as an object in current and hourly data…
        #expect(forecast.current.rainLastHour == 0.21)
        #expect(forecast.hourly[0].rain == 0.35)
        #expect(forecast.hourly[1].snow == 0.1)
        // …but a plain number in daily data.
        #expect(forecast.daily[0].rain == 2.37)
        #expect(forecast.daily[0].day == "2026-11-22")
        #expect(forecast.daily[0].summary == "Expect a day of partly cloudy with rain")
        #expect(forecast.daily[0].moonPhase == 0.21)
        // Absent optional fields.
        #expect(forecast.current.windGust == nil)
        #expect(forecast.hourly[0].windGust == 9.8)
        // Unknown icon codes are kept; presentation picks the fallback icon.
        #expect(forecast.hourly[1].condition?.icon == "99x")
        #expect(forecast.alerts.count == 1)
        #expect(forecast.alerts[0].sender == "Met Office")
        #expect(forecast.alerts[0].description.contains("\n"))
        #expect(forecast.source.api == "openweather/onecall3")
    }

    /// Issue 17, item 7: bodies from 2020 have `timezone` but no `timezone_offset`; the
    /// offset at the data time comes from the zone (New York in July: −4 h, with DST).
    @Test func aMissingOffsetIsDerivedFromTheZone() throws {
        func body(_ zone: String) -> RawResponse {
            let text = #"{"lat": 40.71, "lon": -74.0, "timezone": "\#(zone)", "current": {"dt": 1783000000, "temp": 25, "feels_like": 26, "pressure": 1015, "humidity": 60, "wind_speed": 3, "weather": [{"id": 800, "main": "Clear", "description": "clear sky", "icon": "01d"}]}}"#
            return RawResponse(endpoint: .oneCall, body: Data(text.utf8), fetchedAt: Date())
        }
        let forecast = try decoder.oneCall(body("America/New_York"), city: .test())
        #expect(forecast.location.utcOffsetSeconds == -4 * 3600)
        #expect(throws: IsobarError.self) { try decoder.oneCall(body("Mars/Olympus_Mons"), city: .test()) }
        do {
            _ = try decoder.oneCall(body("Mars/Olympus_Mons"), city: .test())
        } catch {
            #expect("\(error)".contains("timezone_offset is missing and the timezone \"Mars/Olympus_Mons\" is not one this system knows"), "\(error)")
        }
    }

    /// Issue 17, item 5: `\\n` written out in an alert text is a line break on the page
    /// (`white-space: pre-line`) and in `alerts.xml`.
    @Test func escapedNewlinesInAlertsAreLineBreaks() throws {
        let text = #"{"lat": 40.71, "lon": -74.0, "timezone": "America/New_York", "timezone_offset": -18000, "current": {"dt": 1795348200, "temp": 5, "feels_like": 2, "pressure": 1015, "humidity": 60, "wind_speed": 3, "weather": []}, "alerts": [{"sender_name": "NWS", "event": "Wind Advisory", "start": 1795348200, "end": 1795370000, "description": "* WHAT...Winds 40 mph.\\n\\n* WHERE...Coast.\\r\\nKeep a path C:\\temp"}]}"#
        let forecast = try decoder.oneCall(RawResponse(endpoint: .oneCall, body: Data(text.utf8), fetchedAt: Date()), city: .test())
        #expect(forecast.alerts[0].description == "* WHAT...Winds 40 mph.\n\n* WHERE...Coast.\nKeep a path C:\\temp")
        let feed = AlertsFeed.xml(title: "T", feedURL: "https://w.example/alerts.xml", homeURL: "https://w.example/", updated: forecast.current.time,
                                  items: [(AlertsFeed.Item(city: "New York", slug: "new-york-us", alert: forecast.alerts[0], index: 0),
                                           "https://w.example/new-york-us/")])
        #expect(feed.contains("Winds 40 mph.&#10;&#10;* WHERE") && !feed.contains(#"\n"#), "\(feed)")
        let page = try Fixtures.presenter().cityPage(forecast, city: .test(), places: [], root: "../")
        #expect(page.alerts.first?.description.contains("\n\n* WHERE") == true)
    }

    /// The free API's current weather may carry only the last three hours' rain: that is
    /// not "rain, last hour", so it is not shown as such.
    @Test func threeHourAmountsAreNotTheLastHour() throws {
        let current = try String(contentsOf: TestPaths.fixture("weather-free.json"), encoding: .utf8)
        func lastHour(_ rain: String) throws -> Double? {
            let body = current.replacingOccurrences(of: #""clouds":"#, with: #""rain": \#(rain), "clouds":"#)
            #expect(body != current)
            return try decoder.freePair(
                current: RawResponse(endpoint: .currentWeather, body: Data(body.utf8), fetchedAt: Date()),
                forecast: TestPaths.response("forecast-free.json", .fiveDayForecast), city: .test("Tokyo", country: "JP")).current.rainLastHour
        }
        #expect(try lastHour(#"{"3h": 1.2}"#) == nil)
        #expect(try lastHour(#"{"1h": 0.4}"#) == 0.4)
    }

    @Test func imperialResponsesAreConvertedToCanonicalUnits() throws {
        let forecast = try OpenWeatherDecoder(units: .imperial)
            .oneCall(TestPaths.response("onecall-imperial-minimal.json", .oneCall), city: .test("New York", country: "US", units: .imperial))
        #expect(abs(forecast.current.temperature - 10) < 0.001)  // 50 °F
        #expect(abs(forecast.current.windSpeed! - 4.4704) < 0.0001)  // 10 mph
        // No hourly, daily, alerts, dew point, visibility, sunrise: all optional.
        #expect(forecast.hourly.isEmpty)
        #expect(forecast.daily.isEmpty)
        #expect(forecast.alerts.isEmpty)
        #expect(forecast.current.dewPoint == nil)
        #expect(forecast.current.visibility == nil)
    }

    @Test func standardUnitsAreKelvin() throws {
        var body = try String(contentsOf: TestPaths.fixture("onecall-imperial-minimal.json"), encoding: .utf8)
        body = body.replacingOccurrences(of: "\"temp\": 50", with: "\"temp\": 283.15")
            .replacingOccurrences(of: "\"feels_like\": 41", with: "\"feels_like\": 278.15")
        let response = RawResponse(endpoint: .oneCall, body: Data(body.utf8), fetchedAt: Date())
        let forecast = try OpenWeatherDecoder(units: .standard).oneCall(response, city: .test(units: .standard))
        #expect(abs(forecast.current.temperature - 10) < 0.001)
        #expect(abs(forecast.current.feelsLike! - 5) < 0.001)
    }

    @Test func codAsNumberAndAsString() throws {
        // weather.json sends `"cod": 200`, forecast.json `"cod": "200"`: both decode.
        let forecast = try decoder.freePair(
            current: TestPaths.response("weather-free.json", .currentWeather),
            forecast: TestPaths.response("forecast-free.json", .fiveDayForecast),
            city: .test("Tokyo", country: "JP"))
        #expect(forecast.source.api == "openweather/free")
        let text = #"{"cod": "404", "list": []}"#
        let body = try JSONDecoder().decode(FiveDayForecastBody.self, from: Data(text.utf8))
        #expect(body.cod?.value == 404)
    }

    @Test func freePairGivesThreeHourlyStepsAndLocalDays() throws {
        let forecast = try decoder.freePair(
            current: TestPaths.response("weather-free.json", .currentWeather),
            forecast: TestPaths.response("forecast-free.json", .fiveDayForecast),
            city: .test("Tokyo", country: "JP"))
        #expect(forecast.hourly.allSatisfy { $0.stepHours == 3 })
        #expect(forecast.hourly.count == 9)
        #expect(forecast.hourly[3].rain == 0.4)
        #expect(forecast.location.utcOffsetSeconds == 32400)
        #expect(forecast.current.dewPoint != nil)
        // Tokyo is UTC+9: local midnight falls at 15:00 UTC, between steps 5 and 6.
        // Grouping in UTC would give different days; these are local.
        #expect(forecast.daily.map(\.day) == ["2026-11-23", "2026-11-24"])
        let first = forecast.daily[0]
        #expect(first.temperatureMin == 11.0)
        #expect(first.temperatureMax == 19.0)
        #expect(first.condition?.code == 211)  // the thunderstorm outranks the clear hours
        #expect(first.condition?.icon == "11d")
        #expect(first.precipitationChance == 0.9)
        #expect(first.rain == 0.4)
        let second = forecast.daily[1]
        #expect(second.temperatureMin == 16.0)
        #expect(second.temperatureMax == 21.5)
        #expect(second.condition?.code == 804)
        #expect(second.condition?.icon == "04d")  // days use the day icon
        #expect(second.precipitationChance == 0.3)
        #expect(second.rain == nil)
    }

    @Test func freePairUsesTheConfiguredZoneForDST() throws {
        let forecast = try decoder.freePair(
            current: TestPaths.response("weather-free.json", .currentWeather),
            forecast: TestPaths.response("forecast-free.json", .fiveDayForecast),
            city: .test("Tokyo", country: "JP", timeZone: "Asia/Tokyo"))
        #expect(forecast.location.timeZone.identifier == "Asia/Tokyo")
    }

    @Test func airPollutionAndGeocoding() throws {
        let air = try #require(try decoder.airPollution(TestPaths.response("air_pollution.json", .airPollution)))
        #expect(air.index == 2)
        #expect(air.components["pm2_5"] == 6.3)
        let places = try decoder.geocode(TestPaths.response("geocode.json", .geocode))
        #expect(places.first?.name == "São Paulo")
        #expect(places.first?.state == "São Paulo")
        #expect(places.first?.lat == -23.5475)
    }

    @Test(arguments: [
        ("", "empty"),
        ("<html><body>502 Bad Gateway</body></html>", "HTML"),
        (#"{"lat": 1, "lon": 2, "timezone": "UTC", "timezone_offset": 0, "current": {"dt": 1}"#, "not valid JSON"),
        (#"{"lat": 1, "lon": 2, "timezone": "UTC", "timezone_offset": 0}"#, "current is missing"),
        (#"{"lat": 1, "lon": 2, "timezone": "UTC", "timezone_offset": 0, "current": {"dt": 1, "temp": "warm"}}"#, "current.temp has the wrong type"),
    ])
    func badBodiesGiveClearErrors(body: String, expected: String) throws {
        let response = RawResponse(endpoint: .oneCall, body: Data(body.utf8), fetchedAt: Date(), file: URL(fileURLWithPath: "/cache/x/onecall.json"))
        do {
            _ = try decoder.oneCall(response, city: .test())
            Issue.record("decoded a bad body")
        } catch let error as IsobarError {
            #expect(error.step == .normalize)
            #expect(error.path == "/cache/x/onecall.json")
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }
}
