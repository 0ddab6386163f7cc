import Foundation
import Testing
@testable import IsobarCore

/// Page models answer Mustache lookups from key-path tables (Render/MustacheModels.swift),
/// not through `Mirror`. A property missing from its table would silently render as
/// nothing, so every table must list exactly the model's stored properties.
@Suite struct MustacheModelTests {
    func labels(_ value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }

    func check<T: KeyPathMustacheParent>(_ value: T) {
        #expect(labels(value) == Set(T.mustacheFields.keys), "\(T.self)")
    }

    @Test func everyModelTableListsEveryProperty() throws {
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        var withAir = forecast
        withAir.airQuality = try OpenWeatherDecoder(units: .metric).airPollution(TestPaths.response("air_pollution.json", .airPollution))
        let presenter = try PresentationTests.presenter()
        let place = Place(name: "Tower", description: "Old", lat: 51.5, lon: -0.07, wikipedia: "https://en.wikipedia.org/wiki/Tower_of_London", image: nil)
        let page = presenter.cityPage(withAir, city: .test(), places: [place], root: "../")
        check(page)
        check(page.now)
        check(page.now.icon)
        check(page.now.wind)
        check(try #require(page.airQuality))
        check(try #require(page.airQuality?.pollutants.first))
        check(try #require(page.alerts.first))
        check(try #require(page.hourly.first))
        check(try #require(page.daily.first))
        check(try #require(page.places.first))
        check(page.share)
        check(try #require(page.now.uvCategory))
        let card = presenter.indexCard(forecast, city: .test())
        check(card)
        let index = IndexPageModel(t: [:], title: "T", cards: [card], missing: [.init(name: "X", country: "GB", href: nil)])
        check(index)
        check(index.missing[0])
        let layout = LayoutModel(
            t: [:], site: .init(title: "S", language: "en", baseURL: "https://x/"), attributions: [.forSource("open-meteo")],
            page: .init(title: "P", description: "D", canonicalURL: "https://x/", root: "", kind: "index", noIndex: false),
            content: "")
        check(layout)
        check(layout.site)
        check(layout.page)
        check(layout.attributions[0])
    }

    @Test func absentOptionalsReadAsNoValue() throws {
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-imperial-minimal.json", .oneCall), city: .test())
        let page = try PresentationTests.presenter().cityPage(forecast, city: .test(), places: [], root: "../")
        #expect(page.now.child(named: "dewPoint") == nil)
        #expect(page.now.child(named: "temperature") as? String == page.now.temperature)
        #expect(page.child(named: "no-such-value") == nil)
    }
}
