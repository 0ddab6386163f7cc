import Foundation
import Testing
@testable import IsobarCore

/// Names in templates are resolved against the page models' declared fields when the
/// templates load: misspelt names, names used outside the section they belong to, and
/// lists or objects printed as text are errors at their tag; legal Mustache stays legal.
@Suite struct TemplateNameCheckerTests {
    /// A site whose `Templates/` holds `files` (path → text); the built-in theme fills in the rest.
    func findings(_ files: [String: String]) throws -> (errors: [IsobarError], warnings: [IsobarError], folder: TemporaryFolder) {
        let site = try TemporaryFolder()
        for (path, text) in files {
            let url = site.url.appendingPathComponent("Templates").appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let findings = try TemplateSet.loadUnchecked(from: site.url.appendingPathComponent("Templates")).nameProblems()
        return (findings.errors, findings.warnings, site)
    }

    @Test func theBuiltinThemeChecksClean() throws {
        let (errors, warnings, site) = try findings([:])
        defer { site.cleanup() }
        #expect(errors.isEmpty, "\(errors.map(\.description))")
        #expect(warnings.isEmpty, "\(warnings.map(\.description))")
    }

    @Test func aTypoIsAnErrorAtItsTagWithTheNearestName() throws {
        let (errors, _, site) = try findings(["city.md": "# {{name}}\n\nPressure: {{now.presure}}\n"])
        defer { site.cleanup() }
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.location?.file.hasSuffix("Templates/city.md") == true)
        #expect(error.location?.line == 3 && error.location?.column == 13)
        #expect(error.message == "unknown name `now.presure`: a Now has no `presure`")
        #expect(error.hint?.hasPrefix("did you mean `now.pressure`?") == true)
        #expect(error.description.contains(" 3 | Pressure: {{now.presure}}\n   |             ^"), "\(error.description)")
        // `build` stops at it: the whole load throws.
        #expect(throws: IsobarError.self) { try TemplateSet.load(from: site.url.appendingPathComponent("Templates")) }
    }

    @Test func namesAreCheckedInTheirSection() throws {
        // `time` belongs to an hour: fine inside {{#hourly}}, unknown on the page itself.
        let good = """
            {{#hourly}}{{time}} {{temperature}} {{temperature.value}}{{temperature.unit}} {{wind.gust}} {{name}}{{/hourly}}
            {{#daily}}{{sunrise}} {{uvCategory.label}} {{#wind}}{{speed}} {{direction}}{{/wind}}{{/daily}}
            {{#alerts}}{{#tags}}<b>{{.}}</b>{{/tags}}{{^hasTags}}-{{/hasTags}}{{#sender}}{{.}}{{/sender}}{{/alerts}}
            {{#now.wind.gust}}{{value}} {{unit}}{{/now.wind.gust}} {{#now}}{{pressure}}{{/now}} {{^hasAlerts}}{{t.updated}}{{/hasAlerts}}
            {{#share}}{{url}}{{/share}} {{& hourlyChart}} {{{placesMap}}} {{now.temperature}}
            """
        let (errors, warnings, site) = try findings(["city.md": good])
        defer { site.cleanup() }
        #expect(errors.isEmpty, "\(errors.map(\.description))")
        #expect(warnings.isEmpty, "\(warnings.map(\.description))")

        let (outside, _, other) = try findings(["city.md": "{{time}}\n{{#daily}}{{time}}{{/daily}}\n"])
        defer { other.cleanup() }
        #expect(outside.map(\.location?.line) == [1, 2])
        #expect(outside.allSatisfy { $0.message.hasPrefix("unknown name `time`") })
    }

    @Test func aPartialIsCheckedWhereItIsIncluded() throws {
        let (errors, _, site) = try findings([
            "city.md": "{{#hourly}}\n{{> partials/row}}\n{{/hourly}}\n{{> partials/row}}\n",
            "partials/row.md": "{{time}} {{temperature}}\n",
        ])
        defer { site.cleanup() }
        // Fine inside the hours; on the page, `time` is unknown and `temperature` is no name either.
        #expect(errors.count == 2, "\(errors.map(\.description))")
        #expect(errors.allSatisfy { $0.location?.file.hasSuffix("partials/row.md") == true })
        #expect(errors.first?.message == "unknown name `time`")
        #expect(errors.last?.hint?.contains("now.temperature") == true, "\(errors.last?.hint ?? "")")
    }

    @Test func listsAndObjectsPrintedAsTextAreErrors() throws {
        let (errors, warnings, site) = try findings(["city.md": "{{hourly}} {{now}} {{now.temperature.value.x}} {{t}}\n{{#name}}{{.}}{{/name}}\n"])
        defer { site.cleanup() }
        #expect(errors.map(\.message) == [
            "`hourly` is a list of Hour, which prints nothing",
            "`now` is a Now, which prints nothing",
            "`now.temperature.value` is text: it has no `x` inside",
            "`t` is the strings table",
        ])
        #expect(errors[0].hint == "show each item with {{#hourly}}…{{/hourly}}")
        // Legal Mustache, but a section over text every page has always renders once.
        #expect(warnings.map(\.message) == ["`name` is text that every page has, so {{#name}} would always render once"])
    }

    @Test func unknownStringsKeysAndLayoutNames() throws {
        let (errors, _, site) = try findings([
            "layout.html": "<html lang=\"{{site.language}}\"><title>{{page.titel}}</title>{{{content}}}{{t.updatd}}</html>\n",
        ])
        defer { site.cleanup() }
        #expect(errors.map(\.message) == [
            "unknown name `page.titel`: a Page has no `titel`",
            "unknown name `t.updatd`: the strings table `t` (Templates/i18n/en.yml) has no `updatd`",
        ])
        #expect(errors.map { $0.hint?.components(separatedBy: "?").first } == ["did you mean `page.title`", "did you mean `t.updated`"])
    }

    @Test func checkListsEveryNameProblemAndBuildStopsAtTheFirst() async throws {
        let site = try TemporaryFolder.bareSite()
        defer { site.cleanup() }
        let partials = site.url.appendingPathComponent("Templates/partials")
        try FileManager.default.createDirectory(at: partials, withIntermediateDirectories: true)
        let now = try #require(ThemeFiles.builtin(under: "Templates")["partials/now.md"])
        // Inside the theme's `{{#now}}…{{/now}}`, where `pressure` is the current pressure.
        let typo = String(decoding: now, as: UTF8.self)
            .replacingOccurrences(of: "{{#pressure}}", with: "{{#presure}}").replacingOccurrences(of: "{{/pressure}}", with: "{{/presure}}")
        try Data(typo.utf8).write(to: partials.appendingPathComponent("now.md"))
        let check = try await IsobarRun.launch(["check"], in: site.url)
        #expect(check.status == 1)
        #expect(check.stderr.contains("Templates/partials/now.md:39:4: error: unknown name `presure`"), "\(check.stderr)")
        #expect(check.stderr.contains("hint: did you mean `pressure`?"))
        let build = try await IsobarRun.launch(["build"], in: site.url)
        #expect(build.status == 1 && build.stderr.contains("unknown name `presure`"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/index.html").path))
    }
}

/// The field reference is generated from the same declarations, and a theme can use every
/// hourly value without Swift.
@Suite struct FieldReferenceTests {
    @Test func docsTemplatesMdIsTheGeneratedReference() throws {
        let file = TestPaths.repository.appendingPathComponent("docs/templates.md")
        let onDisk = try String(contentsOf: file, encoding: .utf8)
        #expect(onDisk == FieldReference.markdown(), "docs/templates.md is out of date: run `swift run isobar fields --markdown > docs/templates.md`")
    }

    @Test func everyDeclaredFieldIsInTheReference() throws {
        let city = try #require(FieldReference.text(page: "city"))
        for schema in FieldReference.models(from: CityPageModel.fields.schema) {
            #expect(city.contains("\n\(schema.name): "))
            for field in schema.fields {
                #expect(city.contains("\n  \(field.name) "), "\(schema.name).\(field.name)")
            }
        }
        #expect(city.contains("  pressure         Quantity?  Pressure at sea level — e.g. 1013 hPa\n"))
        #expect(FieldReference.text(page: "nope") == nil)
    }

    @Test func fieldsCommandPrintsAPageAndRejectsAnUnknownOne() async throws {
        let site = try TemporaryFolder()
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["fields", "index"], in: site.url)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Names index.md may use"))
        #expect(run.stdout.contains("\nCard: A city on the front page.\n"))
        #expect(!run.stdout.contains("\nHour: "))
        let markdown = try await IsobarRun.launch(["fields", "--markdown"], in: site.url)
        #expect(markdown.stdout == FieldReference.markdown())
        let wrong = try await IsobarRun.launch(["fields", "cty"], in: site.url)
        #expect(wrong.status == 64 && wrong.stderr.contains("no page \"cty\": choose one of city, index, 404, layout"), "\(wrong.stderr)")
    }

    /// A theme adds gusts and pressure columns and draws the temperature from its raw
    /// value: no Swift.
    @Test func aThemeUsingNewHourlyFieldsBuilds() async throws {
        let site = try TemporaryFolder.bareSite()
        defer { site.cleanup() }
        let partials = site.url.appendingPathComponent("Templates/partials")
        try FileManager.default.createDirectory(at: partials, withIntermediateDirectories: true)
        try Data("""
            <table class="gusts">
            {{#hourly}}
            <tr><td class="t" style="--t: {{temperature.value}}">{{temperature}}</td><td class="g">{{#wind.gust}}{{value}} {{unit}}{{/wind.gust}}</td><td class="h">{{humidity}}</td><td class="p">{{pressure.value}}</td></tr>
            {{/hourly}}
            </table>

            """.utf8).write(to: partials.appendingPathComponent("hourly.md"))
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: Fixtures.epoch)
        #expect(run.status == 0, "\(run.stderr)")
        let output = site.url.appendingPathComponent("_site/london-gb")
        let page = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("forecast.json"))) as? [String: Any]
        let hours = try #require((json?["forecast"] as? [String: Any])?["hourly"] as? [[String: Any]])
        let gusts = page.components(separatedBy: "<td class=\"g\">").dropFirst().map { $0.prefix { $0 != "<" } }
        let temperatures = page.components(separatedBy: "style=\"--t: ").dropFirst().map { $0.prefix { $0 != "\"" } }
        let pressures = page.components(separatedBy: "<td class=\"p\">").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(gusts.count >= 24 && gusts.count == temperatures.count && gusts.count == pressures.count)
        for (index, gust) in gusts.enumerated() {
            // London is metric: m/s to a tenth, as forecast.json (canonical units) has it.
            let expected = (hours[index]["windGust"] as? Double).map { FixedPoint.format($0, digits: 1) + " m/s" } ?? ""
            #expect(String(gust) == expected, "hour \(index)")
            let temperature = try #require(hours[index]["temperature"] as? Double)
            #expect(String(temperatures[index]) == FixedPoint.format(temperature, digits: 1))
            let pressure = try #require(hours[index]["pressure"] as? Double, "hour \(index) has no pressure")
            #expect(String(pressures[index]) == FixedPoint.format(pressure, digits: 1))
        }
        #expect(page.contains("<td class=\"h\">95%</td>"))
    }
}
