import Foundation
import Testing
@testable import IsobarCore

/// Page models answer template lookups from their declared fields (Render/Fields/).
/// A property missing there would silently render as nothing, and one answering with the
/// wrong value would put it on every page, so each stored property (found by reflection)
/// must answer to its own name with its own value, and each of a row's measured values
/// (`MeasuredValues`) to the name its declaration gives it.
@Suite struct TemplateFieldTests {
    func check<T: TemplateContext>(_ model: T, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for child in Mirror(reflecting: model).children {
            guard let label = child.label else { continue }
            let answer = model.value(named: label)
            let context = "\(T.self).\(label)"
            if let measured = child.value as? MeasuredListing {
                for (name, quantity) in measured.named {
                    let answer = model.value(named: name)
                    if let quantity {
                        guard case .object(let object) = answer, let shown = object as? Quantity else {
                            Issue.record("\(T.self).\(name) answers \(answer) for \(quantity.text)", sourceLocation: sourceLocation)
                            continue
                        }
                        #expect(shown == quantity, "\(T.self).\(name)", sourceLocation: sourceLocation)
                    } else {
                        #expect(answer.isAbsent, "\(T.self).\(name): an absent value must read as no value", sourceLocation: sourceLocation)
                    }
                }
                continue
            }
            if let optional = child.value as? OptionalValue, optional.isNone {
                #expect(answer.isAbsent, "\(context): an absent optional must read as no value", sourceLocation: sourceLocation)
                continue
            }
            switch (answer, child.value) {
            case (.text(let text), let value as String):
                #expect(text == value, "\(context)", sourceLocation: sourceLocation)
            case (.html(let markup), let value as RenderedHTML):
                #expect(markup == value, "\(context)", sourceLocation: sourceLocation)
            case (.number(let number), let value as Int):
                #expect(number == value, "\(context)", sourceLocation: sourceLocation)
            case (.bool(let flag), let value as Bool):
                #expect(flag == value, "\(context)", sourceLocation: sourceLocation)
            case (.list(let elements), let value as any Collection):
                #expect(elements.count == value.count, "\(context)", sourceLocation: sourceLocation)
            case (.object, _):
                continue
            default:
                Issue.record("\(context) answers \(answer) for \(child.value)", sourceLocation: sourceLocation)
            }
        }
        #expect(model.value(named: "no-such-value").isMissing, sourceLocation: sourceLocation)
    }

    @Test func everyModelTableListsEveryProperty() throws {
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        var withAir = forecast
        withAir.airQuality = try OpenWeatherDecoder(units: .metric).airPollution(TestPaths.response("air_pollution.json", .airPollution))
        let presenter = try Fixtures.presenter()
        let place = Place(name: "Tower", description: "Old", lat: 51.5, lon: -0.07, wikipedia: "https://en.wikipedia.org/wiki/Tower_of_London", image: nil)
        let page = presenter.cityPage(withAir, city: .test(), places: [place], root: "../")
        check(page)
        check(page.now)
        check(try #require(page.now.icon))
        check(try #require(page.now.wind))
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
            t: [:], site: .init(title: "S", language: "en", direction: "ltr", baseURL: "https://x/"), attributions: [.forSource("open-meteo")!],
            page: .init(title: "P", description: "D", canonicalURL: "https://x/", root: "", kind: "index", noIndex: false, home: "index.html", feed: "alerts.xml", feedURL: "https://x/alerts.xml"),
            content: "<p>body</p>")
        check(layout)
        check(layout.site)
        check(layout.page)
        check(layout.attributions[0])
        check(NotFoundPageModel(t: ["a": "b"], root: "/"))
    }

    @Test func absentOptionalsReadAsNoValue() throws {
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-imperial-minimal.json", .oneCall), city: .test())
        let page = try Fixtures.presenter().cityPage(forecast, city: .test(), places: [], root: "../")
        #expect(page.now.value(named: "dewPoint").isAbsent)
        #expect(page.now.measured["dewPoint"] == nil)
        guard case .object(let temperature) = page.now.value(named: "temperature") else {
            Issue.record("temperature is not a quantity")
            return
        }
        #expect(temperature.printed == page.now.temperature.text)
    }
}

/// Lets the test read a model's measured values by their declared names.
private protocol MeasuredListing {
    var named: [(name: String, quantity: Quantity?)] { get }
}

extension MeasuredValues: MeasuredListing {
    var named: [(name: String, quantity: Quantity?)] {
        Row.fields.filter { $0.shown != nil }.map { ($0.name, self[$0.name]) }
    }
}

extension TemplateValue {
    /// A name the model has, without a value: it ends a lookup (`TemplateValue.absent`).
    var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }
}

/// Lets the test see whether a reflected property is an absent optional.
private protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    var isNone: Bool { self == nil }
}

extension TemplateContext {
    /// A lookup by the name as text, as these tests write it (rendering looks up the
    /// numbered parts a template was parsed into).
    func value(named name: String) -> TemplateValue {
        value(for: TemplateKey(name))
    }
}
