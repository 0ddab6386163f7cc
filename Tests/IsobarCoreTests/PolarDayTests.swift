import Foundation
import Testing
@testable import IsobarCore

/// Issue 12, item 10: OpenWeather sends sunrise and sunset 0 in polar night and midnight
/// sun. Pages say so in words, never "01:00" (1970-01-01 00:00 UTC in local time), and
/// forecast.json has no 1970 date.
@Suite struct PolarDayTests {
    static let longyearbyen = (lat: 78.2232, lon: 15.6267, zone: "Arctic/Longyearbyen", offset: 3600)
    static let mcmurdo = (lat: -77.8419, lon: 166.6863, zone: "Antarctica/McMurdo", offset: 46800)

    /// A demo sample moved to `place`, with every sun time 0.
    static func moved(_ sample: String, to place: (lat: Double, lon: Double, zone: String, offset: Int)) throws -> Data {
        let url = TestPaths.repository.appendingPathComponent("Samples/\(sample)")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        func zeroSun(_ object: inout [String: Any]) {
            for key in ["sunrise", "sunset", "moonrise", "moonset"] where object[key] != nil { object[key] = 0 }
        }
        if json["current"] != nil {  // One Call
            json["lat"] = place.lat; json["lon"] = place.lon
            json["timezone"] = place.zone; json["timezone_offset"] = place.offset
            var current = json["current"] as! [String: Any]
            zeroSun(&current)
            json["current"] = current
            json["daily"] = (json["daily"] as! [[String: Any]]).map { day in var day = day; zeroSun(&day); return day }
            json["alerts"] = nil
        } else {  // the free pair
            json["coord"] = ["lat": place.lat, "lon": place.lon]
            json["timezone"] = place.offset
            if var sys = json["sys"] as? [String: Any] { zeroSun(&sys); json["sys"] = sys }
            if var city = json["city"] as? [String: Any] {
                zeroSun(&city); city["coord"] = ["lat": place.lat, "lon": place.lon]; city["timezone"] = place.offset
                json["city"] = city
            }
        }
        return try JSONSerialization.data(withJSONObject: json)
    }

    func site() throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        let samples = site.url.appendingPathComponent("Samples")
        let files: [(String, String, Data)] = [
            ("longyearbyen-sj", "onecall.json", try Self.moved("london-gb/onecall.json", to: Self.longyearbyen)),
            ("mcmurdo-aq", "onecall.json", try Self.moved("london-gb/onecall.json", to: Self.mcmurdo)),
            ("barentsburg-sj", "weather.json", try Self.moved("lod-il/weather.json", to: Self.longyearbyen)),
            ("barentsburg-sj", "forecast.json", try Self.moved("lod-il/forecast.json", to: Self.longyearbyen)),
        ]
        for (slug, name, data) in files {
            try FileManager.default.createDirectory(at: samples.appendingPathComponent(slug), withIntermediateDirectories: true)
            try data.write(to: samples.appendingPathComponent("\(slug)/\(name)"))
        }
        _ = try site.write("""
            base_url: https://weather.example.org/
            provider: snapshot
            snapshot_dir: Samples
            cities:
              - { name: Longyearbyen, country: SJ, timezone: Arctic/Longyearbyen }
              - { name: McMurdo, country: AQ, timezone: Antarctica/McMurdo }
              - { name: Barentsburg, country: SJ, timezone: Arctic/Longyearbyen }
            """, to: "isobar.yml")
        return site
    }

    @Test func polarNightAndMidnightSunAreSaidInWords() async throws {
        let site = try site()
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 0, "\(run.stderr)")
        func page(_ slug: String) throws -> String {
            try String(contentsOf: site.url.appendingPathComponent("_site/\(slug)/index.html"), encoding: .utf8)
        }
        for (slug, words, length) in [("longyearbyen-sj", "Polar night", "0 hr"),
                                      ("barentsburg-sj", "Polar night", "0 hr"),
                                      ("mcmurdo-aq", "Midnight sun", "24 hr")] {
            let html = try page(slug)
            #expect(html.contains("<dt>Daylight</dt><dd>\(words)</dd>"), "\(slug)")
            #expect(html.contains("<dt>Day length</dt><dd>\(length)</dd>"), "\(slug)")
            #expect(!html.contains("<dt>Sunrise</dt>") && !html.contains("<dt>Sunset</dt>"), "\(slug)")
            let json = try String(contentsOf: site.url.appendingPathComponent("_site/\(slug)/forecast.json"), encoding: .utf8)
            #expect(!json.contains("1970"), "\(slug)")
        }
    }

    @Test(arguments: [
        (78.22, "2026-12-21", PolarDay?.some(.polarNight)), (78.22, "2026-06-21", .some(.midnightSun)),
        (-77.84, "2026-11-22", .some(.midnightSun)), (-77.84, "2026-06-21", .some(.polarNight)),
        (69.65, "2026-12-21", .some(.polarNight)), (69.65, "2026-03-21", nil), (51.5, "2026-12-21", nil), (0, "2026-06-21", nil),
    ])
    func polarDaysFollowLatitudeAndDate(latitude: Double, day: String, expected: PolarDay?) throws {
        let date = try #require(ISO8601DateFormatter().date(from: day + "T12:00:00Z"))
        #expect(PolarDay.on(date, latitude: latitude) == expected)
    }

    @Test func zeroAndFarSunTimesAreAbsent() {
        #expect(SunTimes.date(0, near: 1_795_348_800) == nil)
        #expect(SunTimes.date(1_795_348_800 - 5 * 86_400, near: 1_795_348_800) == nil)
        #expect(SunTimes.date(1_795_331_412, near: 1_795_348_800) == Date(timeIntervalSince1970: 1_795_331_412))
        #expect(SunTimes.pair(sunrise: 1_795_300_000, sunset: 1_795_300_000, near: 1_795_300_000).sunrise == nil)
        // Open-Meteo's midnight sun: from the day's 00:00 to the next day's.
        let midnight = 1_781_992_800.0  // 2026-06-21 00:00 in Longyearbyen
        let allDay = SunTimes.pair(sunrise: midnight, sunset: midnight + 86_400, near: midnight)
        #expect(allDay.sunrise == nil && allDay.sunset == nil)
        #expect(SunTimes.pair(sunrise: midnight + 3600, sunset: midnight + 80_000, near: midnight).sunset != nil)
    }
}
