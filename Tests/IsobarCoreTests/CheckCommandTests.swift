import Foundation
import Testing
@testable import IsobarCore

/// `isobar check` through the real binary: every kind of error, and warnings.
@Suite struct CheckCommandTests {
    func check(_ site: TemporaryFolder) async throws -> IsobarRun {
        try await IsobarRun.launch(["check"], in: site.url)
    }

    func edit(_ site: TemporaryFolder, _ file: String, _ change: (String) -> String) throws {
        let url = site.url.appendingPathComponent(file)
        try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
    }

    /// A city only snapshots can answer for, without a recording, is said before a build
    /// fails it; the demo's recorded cities are not.
    @Test func aSnapshotCityWithoutARecordingIsReported() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "isobar.yml") { $0 + "  - { name: Madrid, country: ES }\n" }
        let run = try await check(site)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("Samples/madrid-es: error: Madrid (ES): no snapshot: the folder does not exist"), "\(run.stderr)")
        #expect(run.stderr.contains("record the responses into"), "\(run.stderr)")
        #expect(!run.stderr.contains("London (GB): no snapshot"), "\(run.stderr)")
        #expect(run.stderr.contains("1 error"), "\(run.stderr)")
    }

    /// Every problem of a config in one run, in the file's order, each at its place with its
    /// hint: a misspelt key (whose value is then read as the key's, so it is not also
    /// "missing"), a top-level key indented under another, a nameless city, a bad value.
    @Test func everyConfigProblemIsReportedInOneRun() async throws {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Data"])
        defer { site.cleanup() }
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: snapshot
            langauge: en
            open_meteo:
              cache:
                dir: .c
            cities:
              - { name: London, contry: GB }
              - { country: FR }
              - { name: Rome, country: IT, lat: 200 }
            """, to: "isobar.yml")
        let run = try await check(site)
        #expect(run.status == 1)
        let errors = run.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map { String($0.split(separator: "/").last ?? "") }
        #expect(errors == [
            "isobar.yml:3:1: error: langauge: unknown key",
            "isobar.yml:5:3: error: open_meteo.cache: unknown key",
            "isobar.yml:8:21: error: cities[0].contry: unknown key",
            "isobar.yml:9:5: error: missing required key \"cities[1].name\"",
            "isobar.yml:10:37: error: cities[2].lat: latitude must be between -90 and 90",
        ], "\(run.stderr)")
        #expect(run.stderr.contains("hint: did you mean \"language\"?"))
        #expect(run.stderr.contains("hint: indented under `open_meteo:` — did you mean a top-level `cache:`?"))
        #expect(run.stderr.contains("hint: every city needs the name visitors read"))
        #expect(run.stdout.isEmpty && run.stderr.hasSuffix("5 errors in the config; templates and places not checked\n"), "\(run.stderr)")
    }

    @Test func aGoodSiteChecksOut() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let run = try await check(site)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "ok: 8 cities, 13 templates, 20 places; 0 warnings\n")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".isobar").path))
    }

    /// A language Isobar does not ship, in a site's own file: what it lacks is listed and
    /// shown in English. (A site's file for a shipped language overrides the built-in one
    /// key by key: SmallTruthsTests.)
    @Test func aPartialTranslationIsListedAndFallsBackToEnglish() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        _ = try site.write("now: \"Teraz\"\nhumdity: \"Vlhkosť\"\n", to: "Templates/i18n/sk.yml")
        try edit(site, "isobar.yml") { "language: sk\n" + $0.replacingOccurrences(of: "language: en\n", with: "") }
        let english = try #require(try Strings.read(Strings.themeFile("en.yml", templates: site.url.appendingPathComponent("Templates"))))
        let checked = try await IsobarRun.launch(["check"], in: site.url)
        #expect(checked.status == 0, "\(checked.stderr)")
        let missing = (Array(english.strings.keys) + Array(english.plurals.keys)).filter { $0 != "now" }.sorted()
        #expect(checked.stderr.contains("sk.yml: \(missing.count) UI strings missing, shown in English: \(missing.joined(separator: ", "))"),
                "\(checked.stderr)")
        #expect(checked.stderr.contains("\"humdity\" is not a key of en.yml and is never shown (did you mean \"humidity\"?)"))
        // The German translation is complete: nothing said of it.
        #expect(!checked.stderr.contains("de.yml"))
        let built = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(built.status == 0 && built.stderr.contains("sk.yml lacks \(missing.count) of \(english.count) UI strings"), "\(built.stderr)")
        let page = try String(contentsOf: site.url.appendingPathComponent("_site/london-gb/index.html"), encoding: .utf8)
        #expect(page.contains(">Teraz<") && page.contains(english.strings["humidity"]!) && page.contains(english.strings["next_days"] ?? "Next days"))
        #expect(!page.contains("<dt></dt>") && !page.contains("<h2></h2>"), "no empty label where a string is missing")
    }

    @Test func anUnknownPartialIsAnErrorAtItsTagWithTheNearestName() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "Templates/city.md") { $0.replacingOccurrences(of: "{{> partials/now}}", with: "{{> partials/nwo}}") }
        for command in [["check"], ["build"]] {
            let run = try await IsobarRun.launch(command, in: site.url)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("Templates/city.md:10:5: error: template syntax: unknown partial \"partials/nwo\"")
                && run.stderr.contains(" 10 | {{> partials/nwo}}\n    |     ^") && run.stderr.contains("did you mean {{> partials/now}}?"),
                    "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path), "nothing written")
    }

    /// Issue 28, item 6: the free 2.5 API gives an offset and no zone name, so a city
    /// without `timezone:` is an hour off after a daylight-saving change. `check` names
    /// each such city, its line and the line to add; not a city with `timezone:`, nor one
    /// whose zone has no change coming (Tokyo, São Paulo), nor any with One Call.
    @Test func aCityOnTheFreeAPIWithoutTimezoneIsWarnedAboutWithTheLineToAdd() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "isobar.yml") {
            $0.replacingOccurrences(of: "provider: snapshot", with: "provider: openweather")
                .replacingOccurrences(of: "api: auto", with: "api: free")
                // No stored response: the zone comes from the country's only one.
                + "  - { name: Haifa, country: IL, lat: 32.79, lon: 34.99 }\n"
        }
        let pinned = ["SOURCE_DATE_EPOCH": "1795348800"]  // 2026-11-22: the next change is in March
        let run = try await IsobarRun.launch(["check"], in: site.url, environment: pinned)
        #expect(run.status == 0, "\(run.stderr)")
        let file = site.url.appendingPathComponent("isobar.yml").path
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ name: String) throws -> Int { try #require(lines.firstIndex { $0.contains("name: \(name),") }) + 1 }
        let london = try line("London")
        #expect(run.stderr.contains("""
            warning: \(file):\(london):5: London (GB) has no `timezone:`: with OpenWeather's free 2.5 API its times keep the data \
            time's UTC offset, an hour off after a daylight-saving change (Europe/London's next is on 2027-03-28)
             \(london) |   - { name: London, country: GB }
                |     ^
              hint: add `timezone: Europe/London` to the city (the zone its stored One Call response names)
            """), "\(run.stderr)")
        #expect(run.stderr.contains("\(file):\(try line("New York")):5: New York (US) has no `timezone:`"), "\(run.stderr)")
        #expect(run.stderr.contains("(America/New_York's next is on 2027-03-14)"), "\(run.stderr)")
        #expect(run.stderr.contains("\(file):\(try line("Haifa")):5: Haifa (IL) has no `timezone:`"), "\(run.stderr)")
        #expect(run.stderr.contains("hint: add `timezone: Asia/Jerusalem` to the city (IL's only zone in the tz database)"), "\(run.stderr)")
        for quiet in ["Lod (IL)", "Tokyo (JP)", "São Paulo (BR)"] {
            #expect(!run.stderr.contains(quiet), "\(quiet): \(run.stderr)")
        }
        #expect(run.stderr.contains("no official warnings for New York"), "\(run.stderr)")
        #expect(run.stdout.hasSuffix("; 7 warnings\n"), "London, Paris, Rome, New York, Berlin, Haifa, and New York's NWS warnings without a contact: \(run.stdout)")

        try edit(site, "isobar.yml") { $0.replacingOccurrences(of: "api: free", with: "api: onecall3") }
        let oneCall = try await IsobarRun.launch(["check"], in: site.url, environment: pinned)
        #expect(oneCall.status == 0 && !oneCall.stderr.contains("timezone"), "\(oneCall.stderr)")
    }

    /// zone.tab's coordinates, in both of its forms (ISO 6709 degrees and minutes, and seconds).
    @Test func zoneTableCoordinatesAreRead() throws {
        let table = CountryZones(tab: "# comment\nGB\t+513030-0000731\tEurope/London\nIL\t+3146+03513\tAsia/Jerusalem\tnote\nXX\tbad\tEurope/Paris\n")
        let london = try #require(table.zones(in: "GB").first)
        #expect(abs(london.latitude - 51.508333) < 1e-5 && abs(london.longitude - -0.125278) < 1e-5)
        let jerusalem = try #require(table.zones(in: "IL").first)
        #expect(abs(jerusalem.latitude - (31 + 46.0 / 60)) < 1e-9 && abs(jerusalem.longitude - (35 + 13.0 / 60)) < 1e-9)
        #expect(table.zones(in: "XX").isEmpty)
    }

    @Test func unknownConfigKeyGetsDidYouMean() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "isobar.yml") { $0.replacingOccurrences(of: "snapshot_dir:", with: "snapshot_folder:") }
        let run = try await check(site)
        #expect(run.status == 1)
        #expect(run.stderr.contains("isobar.yml:8:1: error: snapshot_folder: unknown key"), "\(run.stderr)")
        #expect(run.stderr.contains("did you mean \"snapshot_dir\"?"))
        #expect(run.stderr.contains("1 error"))
    }

    @Test func templateErrorsShowFileLineColumnSourceAndCaret() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "Templates/partials/daily.md") { $0.replacingOccurrences(of: "{{/summary}}", with: "{{/sumary}}") }
        let run = try await check(site)
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.contains("daily.md:") })
        #expect(lines[header].contains("Templates/partials/daily.md:16:"), "\(lines[header])")
        #expect(lines[header].contains("does not match"))
        #expect(lines[header + 1].contains("| {{/sumary}}"))
        #expect(lines[header + 2].hasSuffix("^"))
    }

    @Test func placesErrorsNameTheJSONPath() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "Data/places.json") { $0.replacingOccurrences(of: "\"lat\": 51.5081", with: "\"lat\": \"north\"") }
        let typeError = try await check(site)
        #expect(typeError.status == 1)
        #expect(typeError.stderr.contains("london-gb[0].lat has the wrong type"), "\(typeError.stderr)")

        try Data("{\n  \"london-gb\": [\n    { \"name\": Tower }\n  ]\n}\n".utf8).write(to: site.url.appendingPathComponent("Data/places.json"))
        let syntax = try await check(site)
        #expect(syntax.status == 1)
        #expect(syntax.stderr.contains("not valid JSON"), "\(syntax.stderr)")
        #expect(syntax.stderr.contains("line 3") || syntax.stderr.contains("character"), "\(syntax.stderr)")

        try Data().write(to: site.url.appendingPathComponent("Data/places.json"))
        await #expect(try check(site).stderr.contains("the places file is empty"))
    }

    @Test func placesForUnknownCitiesAreWarnings() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "Data/places.json") { $0.replacingOccurrences(of: "\"rome-it\"", with: "\"rome-itt\"") }
        let run = try await check(site)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning:"))
        #expect(run.stderr.contains("\"rome-itt\", which is not a city in the config (did you mean \"rome-it\"?)"))
        #expect(run.stdout.contains("1 warning"))
    }

    @Test func everyProblemIsReportedNotJustTheFirst() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "Templates/city.md") { $0 + "\n{{#open}}\n" }
        try Data("[]".utf8).write(to: site.url.appendingPathComponent("Data/places.json"))
        let run = try await check(site)
        #expect(run.status == 1)
        #expect(run.stderr.contains("city.md"))
        #expect(run.stderr.contains("places"))
        #expect(run.stderr.contains("2 errors"))
    }

    @Test func outputMayNotOverlapTheSite() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site, "isobar.yml") { $0.replacingOccurrences(of: "output: _site", with: "output: .") }
        let run = try await check(site)
        #expect(run.status == 1)
        #expect(run.stderr.contains("overlaps"), "\(run.stderr)")
        let build = try await IsobarRun.launch(["build", "--output", "Templates"], in: site.url)
        #expect(build.status == 1)
        #expect(build.stderr.contains("overlaps templates"), "\(build.stderr)")
    }

    /// Issue 12, item 3: a timeout that would round to 0 ms (libcurl's "no limit") is refused
    /// by `check` and `build` alike, with the range the check applies.
    @Test(arguments: ["0.0001s", "0.5ms", "0s"])
    func timeoutsBelowTheStatedRangeAreRefused(_ value: String) async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let demo = try TestPaths.demoConfig()
        for key in ["timeout", "connect_timeout"] {
            _ = try site.write(demo.replacingOccurrences(of: "openweather:\n", with: "openweather:\n  \(key): \(value)\n"), to: "isobar.yml")
            let expected = "isobar.yml:10:\(key.count + 5): error: openweather.\(key): \"\(value)\" is not a duration between 1s and 10m"
            for command in ["check", "build"] {
                let run = try await IsobarRun.launch([command], in: site.url)
                #expect(run.status == 1, "\(command): \(run.stderr)")
                #expect(run.stderr.contains(expected), "\(command): \(run.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path))
        _ = try site.write(demo.replacingOccurrences(of: "openweather:\n", with: "openweather:\n  timeout: 1s\n  connect_timeout: 1s\n"), to: "isobar.yml")
        let lowest = try await check(site)
        #expect(lowest.status == 0, "\(lowest.stderr)")
    }

    /// Configs that once gave messages without a position or with an empty key path
    /// (issue 12, item 8): the bytes, then where the message points (nil: nowhere, and it
    /// says why) and how it begins, key path first.
    static let unplaceableConfigs: [(name: String, bytes: [UInt8], position: String?, message: String)] = [
        ("not UTF-8", Array("base_url: https://w.example.org/\ntitle: Caf".utf8) + [0xE9] + Array("\ncities: [{ name: Oslo, country: NO }]\n".utf8),
         "2:11", "title: byte 0xE9 is not valid UTF-8"),
        ("a control character in a value", Array("base_url: https://w.example.org/\ncities:\n  - { name: \"Lon\u{1}don\", country: GB }\n".utf8),
         "3:17", "cities[0].name: control character U+0001 is not allowed in YAML"),
        ("a lone ---", Array("---\n".utf8), "1:1", "the top level: the config file holds no settings"),
        ("an empty file", [], nil, "the top level: the config file is empty"),
        ("a list as a key", Array("base_url: https://w.example.org/\n[a, b]: 1\ncities: [{ name: Oslo, country: NO }]\n".utf8),
         "2:1", "the top level: a list used as a key"),
        ("a list as a city's key", Array("base_url: https://w.example.org/\ncities:\n  - { name: Oslo, country: NO, [x]: 1 }\n".utf8),
         "3:32", "cities[0]: a list used as a key"),
        ("a list as the document", Array("- base_url: https://w.example.org/\n".utf8),
         "1:1", "the top level: expected a mapping of keys to values, found a list"),
        ("an unclosed mapping", Array("base_url: https://w.example.org/\ncities:\n  - { name: Oslo, country: NO\n".utf8),
         "4:1", "cities[0].country: YAML syntax: while parsing a flow mapping, did not find expected ',' or '}'"),
        ("two documents", Array("base_url: https://w.example.org/\n---\ncities: []\n".utf8),
         "2:1", "the top level: YAML: expected a single document in the stream, but found another document"),
    ]

    @Test(arguments: unplaceableConfigs.indices)
    func everyConfigErrorHasAPositionAndAKeyPath(_ index: Int) async throws {
        let config = Self.unplaceableConfigs[index]
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Data"])
        defer { site.cleanup() }
        try Data(config.bytes).write(to: site.url.appendingPathComponent("isobar.yml"))
        let run = try await check(site)
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let file = site.url.appendingPathComponent("isobar.yml").path
        #expect(lines[0] == "\(file):\(config.position.map { $0 + ":" } ?? "") error: \(config.message)", "\(config.name): \(run.stderr)")
        if let column = config.position?.split(separator: ":").last.flatMap({ Int($0) }) {
            // The line, then a caret under the column: ` N | text` and `   | ^`.
            let text = try #require(lines[1].split(separator: "|", maxSplits: 1).last, "\(config.name): \(run.stderr)")
            let caret = try #require(lines[2].split(separator: "|", maxSplits: 1).last, "\(config.name): \(run.stderr)")
            #expect(caret == " " + String(repeating: " ", count: column - 1) + "^", "\(config.name): \(run.stderr)")
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "the line is shown without its control character")
        }
    }
}
