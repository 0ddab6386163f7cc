import Foundation
import Testing
@testable import IsobarCore

/// `serve --sample`'s parts, in process: the recording it carries, where a city without
/// coordinates is found, and how the recording is moved to a city (`SampleWeather`).
/// The whole preview, through the binary, is `ServeTests.aNewSiteIsSeenWithSampleWeatherOffline`.
struct SampleWeatherTests {
    @Test func theCarriedRecordingIsTheDemosLondon() throws {
        let file = try String(contentsOf: TestPaths.repository.appendingPathComponent("Samples/london-gb/onecall.json"), encoding: .utf8)
        #expect(SampleWeather.recording == file.trimmingCharacters(in: .newlines), "run python3 Tools/embed-sample.py")
    }

    @Test func aCityIsFoundByNameAndCountryAccentsAside() throws {
        let saoPaulo = try #require(WorldCities.find("sao paulo", country: "br", state: nil))
        #expect(saoPaulo.name == "São Paulo")
        #expect(saoPaulo.timeZone == "America/Sao_Paulo")
        // The largest of a name, unless the state says which.
        #expect(WorldCities.find("Springfield", country: "US", state: nil)?.timeZone == "America/Chicago")
        let massachusetts = try #require(WorldCities.find("Springfield", country: "US", state: "MA"))
        #expect(abs(massachusetts.longitude - -72.59) < 0.1)
        #expect(WorldCities.find("Ulverston", country: "GB", state: nil) == nil)
        #expect(WorldCities.find("Paris", country: "US", state: nil) == nil)
    }

    @Test func aCityGetsTheRecordedTimeOfDayInItsOwnZoneBeforeNow() throws {
        let recording = try SampleWeather.recorded()
        let tokyo = SampleWeather.Place(latitude: 35.6895, longitude: 139.6917, timeZone: "Asia/Tokyo")
        // 12:00 UTC, 22 November: 21:00 in Tokyo, after the recording's 11:50.
        let evening = Date(timeIntervalSince1970: 1_795_348_800)
        let moved = try recording.placed(at: tokyo, units: .metric, now: evening)
        #expect(moved.time == ISO8601DateFormatter().date(from: "2026-11-22T02:50:00Z"))
        // 01:00 UTC: 10:00 in Tokyo, before 11:50, so the day before.
        let morning = Date(timeIntervalSince1970: 1_795_309_200)
        #expect(try recording.placed(at: tokyo, units: .metric, now: morning).time == ISO8601DateFormatter().date(from: "2026-11-21T02:50:00Z"))

        let body = try #require(try JSONSerialization.jsonObject(with: moved.data) as? [String: Any])
        #expect(body["timezone"] as? String == "Asia/Tokyo")
        #expect(body["timezone_offset"] as? Int == 9 * 3600)
        let current = try #require(body["current"] as? [String: Any])
        #expect(current["dt"] as? Int == Int(moved.time.timeIntervalSince1970))
        #expect(current["sunrise"] == nil, "London's sunrise is computed again for the place")
        let hours = try #require(body["hourly"] as? [[String: Any]])
        #expect(hours.count == 48)
        #expect((hours[1]["dt"] as? Int ?? 0) - (hours[0]["dt"] as? Int ?? 0) == 3600)
        let days = try #require(body["daily"] as? [[String: Any]])
        #expect(days.allSatisfy { $0["summary"] == nil && $0["moon_phase"] == nil })
        // Everything else as recorded: humidity stays an integer.
        #expect(current["humidity"] as? Int == 96)
        #expect(current["temp"] as? Double == 9.42)
    }

    @Test func anImperialCitysBodyIsWrittenInItsUnits() throws {
        let recording = try SampleWeather.recorded()
        let boston = SampleWeather.Place(latitude: 42.3584, longitude: -71.0598, timeZone: "America/New_York")
        let moved = try recording.placed(at: boston, units: .imperial, now: Date(timeIntervalSince1970: 1_795_348_800))
        let body = try #require(try JSONSerialization.jsonObject(with: moved.data) as? [String: Any])
        let current = try #require(body["current"] as? [String: Any])
        #expect(abs((current["temp"] as? Double ?? 0) - 48.956) < 0.001)
        #expect(abs((current["wind_speed"] as? Double ?? 0) - 12.415) < 0.001)
        let day = try #require((body["daily"] as? [[String: Any]])?.first?["temp"] as? [String: Any])
        // Read back as the build reads it (plausibility checks included): London's 9.42 °C.
        let decoded = try OpenWeatherDecoder(units: .imperial).oneCall(
            RawResponse(endpoint: .oneCall, body: moved.data, fetchedAt: moved.time), city: .test("Boston", country: "US", units: .imperial))
        #expect(abs(decoded.current.temperature - 9.42) < 0.001)
        #expect(day["max"] as? Double ?? 0 > 40)
    }
}
