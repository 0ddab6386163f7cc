import Foundation
import Testing
@testable import IsobarCore

@Suite struct RenderTests {
    struct Model: TemplateContext {
        var name: String
        var items: [String]

        func value(for key: TemplateKey) -> TemplateValue {
            switch key.text {
            case "name": .text(name)
            case "items": .list(items.map { .text($0) })
            default: .missing
            }
        }
    }

    func templates(_ files: [String: String]) throws -> (TemplateSet, TemporaryFolder) {
        let folder = try TemporaryFolder()
        var all = ["layout.html": "<main>{{{content}}}</main>", "index.md": "# i", "city.md": "# c"]
        all.merge(files) { $1 }
        for (name, text) in all { _ = try folder.write(text, to: name) }
        // Rendered with the ad-hoc `Model`, not a page model: names are not checked.
        return (try TemplateSet.loadUnchecked(from: folder.url), folder)
    }

    @Test func markdownTemplatesGoThroughCmark() throws {
        let (set, folder) = try templates(["city.md": "# {{name}}\n\n{{#items}}\n- {{.}}\n{{/items}}\n"])
        defer { folder.cleanup() }
        let html = try set.renderBody("city", Model(name: "Paris", items: ["Louvre", "Orsay"])).text
        #expect(html == "<h1>Paris</h1>\n<ul>\n<li>Louvre</li>\n<li>Orsay</li>\n</ul>\n")
    }

    @Test func valuesCannotBecomeMarkupInMarkdownOrHTML() throws {
        let (set, folder) = try templates([
            "city.md": "# {{name}}\n\n<p title=\"{{name}}\">{{name}}</p>\n\nText: {{name}}\n",
        ])
        defer { folder.cleanup() }
        let hostile = "<script>alert(1)</script> *bold* [x](javascript:alert(1)) `code` \"q\" 'a'\n\n# Heading"
        let html = try set.renderBody("city", Model(name: hostile, items: [])).text
        #expect(!html.contains("<script"))
        #expect(!html.contains("<em>"))
        #expect(!html.contains("<a "))
        #expect(!html.contains("<code>"))
        #expect(!html.contains("<h1>Heading"))
        #expect(!html.contains("title=\"<"))
        #expect(html.contains("&lt;script&gt;"))
    }

    @Test func htmlTemplatesEscapeForHTML() throws {
        let (set, folder) = try templates(["extra.html": "<p title=\"{{name}}\">{{name}}</p>"])
        defer { folder.cleanup() }
        let html = try set.renderBody("extra", Model(name: "a\"<b>&", items: [])).text
        #expect(html == "<p title=\"a&quot;&lt;b&gt;&amp;\">a&quot;&lt;b&gt;&amp;</p>")
    }

    @Test func partialsByPath() throws {
        let (set, folder) = try templates([
            "city.md": "{{> partials/head}}\n",
            "partials/head.md": "## {{name}}\n",
        ])
        defer { folder.cleanup() }
        #expect(try set.renderBody("city", Model(name: "Rome", items: [])).text == "<h2>Rome</h2>\n")
    }

    @Test func syntaxErrorsNameFileLineAndColumn() throws {
        do {
            _ = try templates(["city.md": "# Title\n\n{{#items}}\n- {{.}}\n{{/itemz}}\n"])
            Issue.record("parsed a broken template")
        } catch let error as IsobarError {
            #expect(error.location?.file.hasSuffix("city.md") == true)
            #expect(error.location?.line == 5)
            #expect(error.message.contains("does not match"))
            #expect(error.description.contains(" 5 | {{/itemz}}"))
        }
        do {
            _ = try templates(["city.md": "# {{name"])
            Issue.record("parsed a broken template")
        } catch let error as IsobarError {
            #expect(error.location?.line == 1)
            #expect((error.location?.column ?? 0) < 12)  // the hidden pragma is not counted
        }
    }

    @Test func aPartialThemeTakesTheRestFromTheBuiltinOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        _ = try folder.write("<main>{{{content}}}</main>", to: "layout.html")
        _ = try folder.write("# mine", to: "index.md")
        let templates = try TemplateSet.load(from: folder.url)
        // The site's layout and index, the built-in city page, 404, partials and share card.
        #expect(templates.has("city") && templates.has("404") && templates.has("partials/now") && templates.has("card"))
        #expect(templates.count == ThemeFiles.builtin(under: "Templates").keys.filter { $0.hasSuffix(".md") || $0.hasSuffix(".html") || $0.hasSuffix(".svg") }.count)
        let page = try templates.renderPage(LayoutModel(
            t: [:], site: .init(title: "T", language: "en", direction: "ltr", baseURL: "https://w.example.org/"), attributions: [],
            page: .init(title: "t", description: "d", canonicalURL: "https://w.example.org/", root: "", kind: "index", noIndex: false, home: "index.html", feed: "alerts.xml", feedURL: "https://x/alerts.xml"),
            content: "<p>x</p>"))
        #expect(String(decoding: page, as: UTF8.self) == "<main><p>x</p></main>")
    }

    @Test func cmarkFreesAndRendersUnicode() {
        #expect(Markdown.html(from: "São *Paulo* — 12°") == "<p>São <em>Paulo</em> — 12°</p>\n")
        #expect(Markdown.html(from: "") == "")
    }

    /// forecast.json writes two-decimal numbers digit by digit; the text must be exactly
    /// what `String(value)` gives (the shortest that reads back the same) for the value to
    /// six decimals.
    @Test func forecastNumbersAreWrittenAsSwiftPrintsThem() {
        func written(_ value: Double) -> String {
            let json = JSONText()
            json.number(value)
            return String(decoding: json.bytes, as: UTF8.self)
        }
        func shortest(_ value: Double) -> String {
            let value = JSONText.tidy(value)
            return value == value.rounded() ? String(Int64(value)) : String(value)
        }
        var checked = 0
        for hundredths in stride(from: -200_000, through: 200_000, by: 7) {
            let value = Double(hundredths) / 100
            let expected = value == value.rounded() ? String(Int64(value)) : String(value)
            if written(value) != expected { Issue.record("\(value): \(written(value)) != \(expected)") }
            checked += 1
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double.random(in: -1e6...1e6, using: &generator) / Double([1, 10, 1000, 3].randomElement(using: &generator)!)
            let expected = shortest(value)
            if written(value) != expected { Issue.record("\(value): \(written(value)) != \(expected)") }
        }
        for value in [0.01, -0.01, 0.05, 12_345_678_901.23, 273.15, -40.4, 1e14 + 0.5, 99.99, 100.1] {
            #expect(written(value) == String(value), "\(value)")
        }
        // Conversion noise is not written (issue 17, item 9).
        #expect(written(12.240000000000009) == "12.24")
        #expect(written(0.1 + 0.2) == "0.3")
        #expect(written((53.6 - 32) * 5 / 9) == "12")
        #expect(written(10 * 0.44704) == "4.4704")
        #expect(written(1e-7) == "0")
        #expect(checked > 50_000)
        #expect(JSONText.exactHundredths(8.89) == 889 && JSONText.exactHundredths(0.1 + 0.2) == nil)
    }

    /// forecast.json is written by hand for speed; it must still be the model's Codable form.
    @Test func forecastJSONDecodesBackToTheSameForecast() throws {
        struct Document: Decodable { var slug: String; var units: String; var forecast: Forecast }
        for fixture in ["onecall-quirks.json", "onecall-imperial-minimal.json"] {
            var forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response(fixture, .oneCall), city: .test())
            forecast.airQuality = try OpenWeatherDecoder(units: .metric).airPollution(TestPaths.response("air_pollution.json", .airPollution))
            forecast.location.name = "Quote \" and \\ and </script> and \u{2028} and \u{1}"
            forecast.nowcast = [NowcastStep(time: forecast.current.time, minutes: 15, intensity: 1.2),
                                NowcastStep(time: forecast.current.time.addingTimeInterval(900), minutes: 15, intensity: 0)]
            let data = try ForecastJSON.data(forecast, slug: "london-gb")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let document = try decoder.decode(Document.self, from: data)
            #expect(document.slug == "london-gb")
            #expect(document.forecast == forecast, "\(fixture)")
            #expect(!String(decoding: data, as: UTF8.self).contains("</script>"))
        }
    }
}
