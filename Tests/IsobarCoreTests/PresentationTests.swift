import Foundation
import Testing
@testable import IsobarCore

@Suite struct PresentationTests {
    @Test func temperaturesInEachUnitSystem() {
        #expect(UnitFormatter(units: .metric).temperature(9.6) == "10°")
        #expect(UnitFormatter(units: .metric).temperature(-2.4) == "\u{2212}2°")
        #expect(UnitFormatter(units: .imperial).temperature(10) == "50°")
        #expect(UnitFormatter(units: .standard).temperature(10) == "283 K")
        #expect(UnitFormatter(units: .imperial).temperatureWithUnit(0) == "32 °F")
    }

    @Test func speedsDistancesAndPressure() {
        #expect(UnitFormatter(units: .metric).speed(5.1) == "5 m/s")
        #expect(UnitFormatter(units: .imperial).speed(4.4704) == "10 mph")
        #expect(UnitFormatter(units: .metric).distance(10000) == "10 km")
        #expect(UnitFormatter(units: .metric).distance(6000) == "6.0 km")
        #expect(UnitFormatter(units: .imperial).distance(16093.44) == "10 mi")
        #expect(UnitFormatter(units: .metric).pressure(1012.4) == "1012 hPa")
    }

    @Test(arguments: [
        (0.0, "N"), (11.0, "N"), (12.0, "NNE"), (45.0, "NE"), (90.0, "E"), (180.0, "S"),
        (225.0, "SW"), (270.0, "W"), (348.0, "NNW"), (349.0, "N"), (360.0, "N"), (-90.0, "W"),
    ])
    func compassPoints(degrees: Double, point: String) {
        #expect(Compass.point(for: degrees) == point)
    }

    @Test func uvAndAirQualityCategories() {
        #expect(UVCategory.of(0.4).label == "Low")
        #expect(UVCategory.of(2.6).label == "Moderate")
        #expect(UVCategory.of(7).label == "High")
        #expect(UVCategory.of(10.4).label == "Very high")
        #expect(UVCategory.of(11).label == "Extreme")
        #expect(AirQualityCategory.of(1).label == "Good")
        #expect(AirQualityCategory.of(5).key == "aqi-5")
    }

    @Test func iconsFallBackToUnknown() {
        let icons = IconCatalog(available: ["10d", "unknown"])
        #expect(icons.path(for: "10d") == "icons/10d.svg")
        #expect(icons.path(for: "99x") == "icons/unknown.svg")
        #expect(icons.path(for: "../../x") == "icons/unknown.svg")
        #expect(icons.path(for: "") == "icons/unknown.svg")
    }

    @Test func localTimesUseTheCityZone() throws {
        let date = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22 12:00 UTC
        #expect(LocalTimeFormatter(zone: TimeZone(identifier: "Asia/Tokyo")!, language: "en").time(date) == "21:00")
        #expect(LocalTimeFormatter(zone: TimeZone(identifier: "America/New_York")!, language: "en").time(date) == "07:00")
        #expect(LocalTimeFormatter(zone: TimeZone(identifier: "America/New_York")!, language: "en").iso8601(date) == "2026-11-22T07:00-05:00")
    }

    @Test func onlyWebLinksSurvive() {
        #expect(Presenter.webLink("https://en.wikipedia.org/wiki/Big_Ben") == "https://en.wikipedia.org/wiki/Big_Ben")
        #expect(Presenter.webLink("javascript:alert(1)") == nil)
        #expect(Presenter.webLink("data:text/html,hi") == nil)
        #expect(Presenter.webLink(" JavaScript:alert(1)") == nil)
    }

    @Test func cityPageModelFromOneCall() throws {
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        let presenter = Presenter(language: "en", icons: IconCatalog(available: ["09d", "10d", "unknown"]))
        let page = presenter.cityPage(forecast, city: .test(), places: [], root: "../")
        #expect(page.now.temperature == "10°")
        #expect(page.now.description == "Light intensity drizzle")
        #expect(page.now.otherConditions == "mist")
        #expect(page.now.icon.src == "../assets/icons/09d.svg")
        #expect(page.now.windDirection == "SW")
        #expect(page.now.high == "10°")
        #expect(page.now.low == "6°")
        #expect(page.hourly[1].icon.src == "../assets/icons/unknown.svg")
        #expect(page.hourly[1].icon.alt == "Broken clouds")
        #expect(page.hourly[0].precipitationChance == "64 %")
        #expect(page.updated == "Sun, Nov 22, 11:50")
        #expect(page.hasAlerts)
        #expect(!page.hasPlaces)
    }
}
