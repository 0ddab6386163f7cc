import Foundation
import Testing
@testable import IsobarCore

/// CAP polygons, the NWS's and MeteoAlarm's bodies, and which sources cover a city.
@Suite struct WarningsTests {
    static let fixtures = TestPaths.repository.appendingPathComponent("Tests/IsobarCoreTests/Fixtures/warnings")

    static func city(_ name: String, _ country: String, _ latitude: Double, _ longitude: Double) -> CityConfig {
        var city = CityConfig.test(name, country: country)
        city.latitude = latitude
        city.longitude = longitude
        return city
    }

    @Test func aPointIsInsideAPolygonByTheEvenOddRule() throws {
        let square = try #require(CAPPolygon("0,0 0,10 10,10 10,0 0,0"))
        #expect(square.contains(latitude: 5, longitude: 5))
        #expect(!square.contains(latitude: 5, longitude: 15))
        #expect(!square.contains(latitude: -1, longitude: 5))
        // A ray through a vertex (latitude 5 meets the diamond's corner) counts it once.
        let diamond = try #require(CAPPolygon("0,5 5,10 10,5 5,0 0,5"))
        #expect(diamond.contains(latitude: 5, longitude: 5))
        #expect(!diamond.contains(latitude: 5, longitude: -1), "west of the western corner, on the ray through it")
        #expect(!diamond.contains(latitude: 5, longitude: 11))
        // A concave outline (a U): the gap between the arms is outside, the arms inside.
        let u = try #require(CAPPolygon("0,0 10,0 10,3 2,3 2,7 10,7 10,10 0,10 0,0"))
        #expect(u.contains(latitude: 5, longitude: 1))
        #expect(!u.contains(latitude: 5, longitude: 5), "between the arms")
        #expect(u.contains(latitude: 8, longitude: 8))
        // A horizontal edge level with the point does not count as a crossing.
        let step = try #require(CAPPolygon("0,0 0,10 4,10 4,6 8,6 8,0 0,0"))
        #expect(step.contains(latitude: 2, longitude: 8))
        #expect(!step.contains(latitude: 6, longitude: 8), "above the step")
        #expect(step.contains(latitude: 6, longitude: 3))
        // Negative coordinates, and an outline not closed by repeating the first point.
        let west = try #require(CAPPolygon("40.5,-74.3 40.9,-74.3 40.9,-73.7 40.5,-73.7"))
        #expect(west.contains(latitude: 40.7128, longitude: -74.006))
        #expect(!west.contains(latitude: 40.7128, longitude: 74.006))
    }

    @Test(arguments: ["", "1,2 3,4", "a,b c,d e,f", "1,2,3 4,5 6,7", "1;2 3;4 5;6", "nan,1 2,3 4,5"])
    func textThatIsNoPolygonIsRefused(text: String) {
        #expect(CAPPolygon(text) == nil)
    }

    @Test func nwsAlertsAreReadWithTheirCAPFields() throws {
        let alerts = try NWSAlertDecoder().alerts(Data(contentsOf: Self.fixtures.appendingPathComponent("nws-alerts.json")))
        try #require(alerts.count == 1)
        let alert = alerts[0]
        #expect(alert.event == "Winter Storm Warning" && alert.sender == "NWS Upton NY")
        #expect(alert.severity == .severe && alert.urgency == "Expected" && alert.certainty == "Likely")
        #expect(alert.area == "New York (Manhattan)" && alert.source == .nws)
        #expect(alert.instruction?.hasPrefix("If you must travel") == true)
        #expect(alert.start == (try Date("2026-11-22T18:00:00Z", strategy: .iso8601)), "onset, with its offset")
        #expect(alert.end == (try Date("2026-11-24T00:00:00Z", strategy: .iso8601)), "ends, not expires")
        #expect(alert.description.hasPrefix("Winter Storm Warning issued"))
        #expect(throws: IsobarError.self) { try NWSAlertDecoder().alerts(Data(#"{"type": "Feature"}"#.utf8)) }
    }

    @Test func meteoAlarmKeepsWarningsWhoseAreaHoldsTheCityInItsLanguage() throws {
        let body = try Data(contentsOf: Self.fixtures.appendingPathComponent("meteoalarm-norway.json"))
        let bergen = Self.city("Bergen", "NO", 60.39126, 5.32214)
        let english = try MeteoAlarmDecoder(language: "en").alerts(body, for: bergen)
        // The green entry is no warning; the expired one is still in the feed (Normalize
        // drops it against the data time); Troms's polygon does not hold Bergen.
        #expect(english.map(\.event) == ["Yellow warning for wind, Vestland", "Yellow warning for rain, Vestland (expired)"])
        #expect(english[0].severity == .moderate && english[0].area == "Vestland" && english[0].tags == ["Wind"])
        #expect(english[0].instruction == "Secure loose objects. Be prepared for delays in traffic.")
        let norwegian = try MeteoAlarmDecoder(language: "nb").alerts(body, for: bergen)
        #expect(norwegian.first?.event == "Gult farevarsel for kraftig vind, Vestland", "nb reads the `no` block")
        #expect(try MeteoAlarmDecoder(language: "ja").alerts(body, for: bergen).first?.event == "Yellow warning for wind, Vestland", "else English")
        #expect(try MeteoAlarmDecoder(language: "en").alerts(body, for: Self.city("Oslo", "NO", 59.9139, 10.7522)).isEmpty)
        // Without coordinates inside any polygon, a configured geocode matches.
        var elsewhere = Self.city("Somewhere", "NO", 0, 0)
        elsewhere.warningAreas = ["no019"]
        #expect(try MeteoAlarmDecoder(language: "en").alerts(body, for: elsewhere).map(\.event) == ["Orange warning for snow, Troms"])
    }

    @Test func aCancelledOrUpdatedWarningIsLeftOut() throws {
        let body = Data("""
            {"warnings": [
             {"alert": {"identifier": "A", "status": "Actual", "msgType": "Alert", "info": {"language": "en", "headline": "Old",
              "severity": "Severe", "onset": "2026-11-22T06:00:00+01:00", "expires": "2026-11-23T06:00:00+01:00",
              "area": {"areaDesc": "X", "polygon": "0,0 0,10 10,10 10,0 0,0"}}}},
             {"alert": {"identifier": "B", "status": "Actual", "msgType": "Update", "references": "s,A,2026-11-22T05:00:00+01:00",
              "info": [{"language": "en", "headline": "New", "severity": "Extreme", "onset": "2026-11-22T06:00:00+01:00",
              "expires": "2026-11-23T06:00:00+01:00", "area": [{"areaDesc": "X", "polygon": ["0,0 0,10 10,10 10,0 0,0"]}]}]}},
             {"alert": {"identifier": "C", "status": "Exercise", "msgType": "Alert", "info": [{"language": "en", "headline": "Drill",
              "onset": "2026-11-22T06:00:00+01:00", "expires": "2026-11-23T06:00:00+01:00", "area": [{"polygon": ["0,0 0,10 10,10 10,0 0,0"]}]}]}}
            ]}
            """.utf8)
        let alerts = try MeteoAlarmDecoder(language: "en").alerts(body, for: Self.city("P", "NO", 5, 5))
        #expect(alerts.map(\.event) == ["New"] && alerts.first?.severity == .extreme)
    }

    @Test func autoPicksTheNationalServiceAndOffPicksNone() throws {
        let file = URL(fileURLWithPath: "/tmp/isobar.yml")
        let cities = """
            cities:
              - { name: Berlin, country: DE, lat: 52.52, lon: 13.405 }
              - { name: New York, country: US, lat: 40.71, lon: -74.0 }
              - { name: Tokyo, country: JP, lat: 35.69, lon: 139.69 }
            """
        let base = "base_url: https://w.example.org/\nprovider: openweather\n"
        let auto = try ConfigLoader.parse(base + "contact: ops@example.org\n" + cities, file: file)
        #expect(auto.cities.map(auto.warningSources) == [[.meteoalarm], [.nws], [.openweather]])
        let noContact = try ConfigLoader.parse(base + cities, file: file)
        #expect(noContact.warningSources(for: noContact.cities[1]) == [.openweather], "no NWS without a contact")
        #expect(noContact.nwsCitiesWithoutContact.map(\.name) == ["New York"])
        let off = try ConfigLoader.parse(base + "alerts: off\n" + cities, file: file)
        #expect(off.cities.allSatisfy { off.warningSources(for: $0).isEmpty })
        let listed = try ConfigLoader.parse(base + "alerts: [meteoalarm]\n" + cities, file: file)
        #expect(listed.cities.map(listed.warningSources) == [[.meteoalarm], [], []])
        let nws = try ConfigLoader.parse(base + "contact: a@b.org\nnws: { contact: https://weather.example.org/ }\n" + cities, file: file)
        #expect(nws.contact(for: .nws) == "https://weather.example.org/" && nws.nws.baseURL.absoluteString == "https://api.weather.gov")
        for (text, expected) in [("alerts: sometimes\n", "is not auto, off or a list"), ("alerts: [nws, nws]\n", "listed twice"),
                                 ("alerts: [dwd]\n", "dwd"), ("alerts: [nws]\n", "nws needs a contact")] {
            do {
                _ = try ConfigLoader.parse(base + text + cities, file: file)
                Issue.record("accepted: \(text)")
            } catch {
                #expect("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
