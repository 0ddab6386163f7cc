import Foundation
import Testing
@testable import IsobarCore

/// Issue 17: "rain in the next hour" from One Call's `minutely` and Open-Meteo's
/// `minutely_15`, in words, as a strip of bars, on the page and its index card.
@Suite struct NowcastTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_200)  // 2026-11-22 11:50 UTC

    /// A minute-by-minute hour from `now` with rain in the given minutes.
    static func minutes(wet: Range<Int>, count: Int = 61) -> [NowcastStep] {
        (0..<count).map { NowcastStep(time: now.addingTimeInterval(Double($0) * 60), minutes: 1, intensity: wet.contains($0) ? 1.5 : 0) }
    }

    func sentence(_ steps: [NowcastStep], kind: String = "rain") throws -> String? {
        let strings = try Fixtures.strings()
        let clock = LocalTimeFormatter(zone: TimeZone(identifier: "Europe/London")!, language: "en", around: Self.now)
        return NowcastText.window(steps, from: Self.now).map { NowcastText(strings: strings, clock: clock).sentence($0, from: Self.now, kind: kind) }
    }

    @Test func theNextHourInWords() throws {
        #expect(try sentence(Self.minutes(wet: 0..<0)) == "No rain expected in the next hour")
        #expect(try sentence(Self.minutes(wet: 20..<61)) == "Rain starting in about 20 min")
        #expect(try sentence(Self.minutes(wet: 20..<50)) == "Rain starting in about 20 min, stopping around 12:40")
        #expect(try sentence(Self.minutes(wet: 0..<35)) == "Rain stopping around 12:25")
        #expect(try sentence(Self.minutes(wet: 0..<61), kind: "snow") == "Snow for the next hour")
        // A trace (under 0.1 mm/h) is not rain.
        let trace = Self.minutes(wet: 0..<0).map { NowcastStep(time: $0.time, minutes: 1, intensity: 0.05) }
        #expect(try sentence(trace) == "No rain expected in the next hour")
        // Data that does not reach across the hour says nothing about it.
        #expect(try sentence(Self.minutes(wet: 0..<10, count: 30)) == nil)
        #expect(try sentence([]) == nil)
    }

    @Test func oneCallMinutelyAndOpenMeteoQuarterHours() throws {
        var oneCall = try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.repository.appendingPathComponent("Samples/london-gb/onecall.json"))) as! [String: Any]
        let dt = (oneCall["current"] as! [String: Any])["dt"] as! Int
        oneCall["minutely"] = (0...60).map { ["dt": dt - dt % 60 + $0 * 60, "precipitation": $0 >= 25 ? 2.0 : 0] }
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(
            RawResponse(endpoint: .oneCall, body: try JSONSerialization.data(withJSONObject: oneCall), fetchedAt: Date()), city: .test())
        #expect(forecast.nowcast.count == 61 && forecast.nowcast.allSatisfy { $0.minutes == 1 })
        let page = try Fixtures.presenter().cityPage(forecast, city: .test(), places: [], root: "../")
        #expect(page.nowcast?.text == "Rain starting in about 25 min", "\(String(describing: page.nowcast))")
        #expect(page.nowcast?.strip.text.contains(#"<svg class="nowcast-strip""#) == true)
        #expect(try Fixtures.presenter().indexCard(forecast, city: .test()).nowcast == "Rain starting in about 25 min")

        // Open-Meteo: each value is the quarter hour before its time, in inches here.
        let body = #"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"timezone":"GMT","current":{"time":1795348800,"temperature_2m":50,"weather_code":61},"minutely_15":{"time":[1795348800,1795349700,1795350600,1795351500,1795352400,1795353300],"precipitation":[0.02,0.02,0,0,0,null]}}"#
        let quarters = try OpenMeteoDecoder(units: .imperial, describe: { "\($0)" })
            .forecast(RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: Date()), city: .test(units: .imperial))
        #expect(quarters.nowcast.first?.time == Date(timeIntervalSince1970: 1_795_348_800 - 900))
        #expect(abs((quarters.nowcast.first?.intensity ?? 0) - 0.02 * 25.4 * 4) < 1e-9)
        #expect(quarters.nowcast.count == 5)
        let omPage = try Fixtures.presenter().cityPage(quarters, city: .test(units: .imperial), places: [], root: "../")
        #expect(omPage.nowcast?.text == "Rain stopping around 12:15", "\(String(describing: omPage.nowcast))")
    }

    /// Drizzle is a bar a phone shows, not a line: the scale starts at a trace.
    @Test func lightRainFillsAThirdOfTheStripAndHeavyRainAllOfIt() {
        #expect(NowcastStrip.share(0.05) == 1.0 / 6)
        #expect(NowcastStrip.share(0.25) >= 1.0 / 3)
        #expect(NowcastStrip.share(8) == 1)
        #expect(NowcastStrip.share(40) == 1)
        let rising = [0.1, 0.3, 1, 2.5, 5, 8].map(NowcastStrip.share)
        #expect(rising == rising.sorted() && Set(rising).count == rising.count, "\(rising)")
    }

    @Test func requestsAskForTheNowcast() {
        var city = CityConfig.test()
        city.latitude = 51.5
        city.longitude = -0.1
        let query = OpenMeteoRequests(settings: OpenMeteoSettings(), language: "en", forecastHours: 76).request(.openMeteoForecast, for: city).url.query ?? ""
        #expect(query.contains("minutely_15=precipitation") && query.contains("forecast_minutely_15=8"))
    }

    /// The demo's One Call samples carry `minutely`: every such page and card says what
    /// the next hour brings, and a page without the data says nothing about it.
    @Test func demoPagesShowTheNowcast() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 0, "\(run.stderr)")
        func text(_ path: String) throws -> String { try String(contentsOf: site.url.appendingPathComponent("_site/\(path)"), encoding: .utf8) }
        #expect(try text("london-gb/index.html").contains(#"<p class="nowcast-text">Rain for the next hour</p>"#))
        #expect(try text("berlin-de/index.html").contains(#"<p class="nowcast-text">Snow for the next hour</p>"#))
        #expect(try text("index.html").contains(#"<span class="card-nowcast">Rain for the next hour</span>"#))
        #expect(!(try text("lod-il/index.html")).contains("nowcast"))  // the free API has none
    }
}
