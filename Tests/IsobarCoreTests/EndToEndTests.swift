import Foundation
import Testing
@testable import IsobarCore

/// Runs the real `isobar` binary on temporary copies of the demo site.
@Suite struct EndToEndTests {
    /// 2026-11-22 12:00 UTC: the pinned build clock.
    static let pinnedClock = "1795348800"

    func run(_ arguments: [String], in folder: URL, environment extra: [String: String] = [:]) async throws -> IsobarRun {
        var environment = ["SOURCE_DATE_EPOCH": Self.pinnedClock]
        environment.merge(extra) { $1 }
        return try await IsobarRun.launch(arguments, in: folder, environment: environment)
    }

    /// A copy of the demo site (config, samples, theme, places) in a temp folder.
    func demoSite() throws -> TemporaryFolder {
        try TemporaryFolder.demoSite()
    }

    func page(_ folder: TemporaryFolder, _ path: String) throws -> String {
        try String(contentsOf: folder.url.appendingPathComponent("_site/\(path)"), encoding: .utf8)
    }

    func sample(_ slug: String, _ endpoint: String) throws -> [String: Any] {
        let url = TestPaths.repository.appendingPathComponent("Samples/\(slug)/\(endpoint).json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func buildsTheDemoSite() async throws {
        let site = try demoSite()
        defer { site.cleanup() }
        let result = try await run(["build"], in: site.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("built 8 of 8 cities"))

        let index = try page(site, "index.html")
        let slugs = ["london-gb", "paris-fr", "rome-it", "new-york-us", "berlin-de", "lod-il", "tokyo-jp", "sao-paulo-br"]
        var lastPosition = index.startIndex
        for slug in slugs {
            // Every city is linked from the index, in config order.
            let link = try #require(index.range(of: "href=\"\(slug)/index.html\"", range: lastPosition..<index.endIndex), "\(slug) missing or out of order")
            lastPosition = link.upperBound
            #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/\(slug)/index.html").path))
        }
        #expect(index.contains("São Paulo"))
        #expect(index.contains("<!doctype html>"))

        let english = try Strings.load(templates: TestPaths.repository.appendingPathComponent("Templates"), language: "en").strings
        for slug in slugs where slug != "lod-il" {
            let html = try page(site, "\(slug)/index.html")
            let body = try sample(slug, "onecall")
            let current = try #require(body["current"] as? [String: Any])
            let weather = try #require((current["weather"] as? [[String: Any]])?.first)
            let temperature = try #require(current["temp"] as? Double)
            let shown = UnitFormatter.signed(temperature)
            // The API's units are the city's units (New York is imperial), so the number shows as sent.
            let unit = slug == "new-york-us" ? "°F" : "°C"
            #expect(html.contains("<p class=\"now-temp\"><bdi dir=\"ltr\">\(shown)\(unit)</bdi></p>"), "\(slug): \(shown)\(unit)")
            let icon = try #require(weather["icon"] as? String)
            #expect(html.contains("src=\"../assets/icons/\(icon).svg\""), "\(slug): icon \(icon)")
            // Described by the strings for its condition code, not by the API's words.
            let id = try #require(weather["id"] as? Int)
            let description = try #require(english.table["owm_\(id)"])
            #expect(html.contains("alt=\"\(Presenter.sentence(description))\""), "\(slug): alt")
            #expect(count("<tr><th scope=\"row\">", in: html) == 48, "\(slug): 48 hourly rows")
            #expect(count("<span class=\"day-name\">", in: html) == 8, "\(slug): 8 days")
            // A blank line inside an HTML block would hand the rest to Markdown, which wraps
            // the theme's markup in paragraphs or code blocks.
            for broken in ["<p><span", "<p><div", "<p></", "<pre><code>"] {
                #expect(!html.contains(broken), "\(slug): \(broken)")
            }
            let hasAlerts = (body["alerts"] as? [Any])?.isEmpty == false
            #expect(html.contains("<section class=\"alerts\"") == hasAlerts, "\(slug): alerts section")
        }

        // A city page with everything it loads, but no place photos, stays under 150 KB.
        for slug in slugs {
            let html = try page(site, "\(slug)/index.html")
            var assets = Set(["assets/style.css", "assets/share.js"])
            for match in html.matches(of: /src="\.\.\/(assets\/icons\/[a-z0-9]+\.svg)"/) { assets.insert(String(match.1)) }
            let weight = try assets.reduce(html.utf8.count) { total, asset in
                total + (try Data(contentsOf: site.url.appendingPathComponent("_site/\(asset)")).count)
            }
            #expect(weight < 150_000, "\(slug) weighs \(weight) bytes")
            // Self-contained: nothing is loaded from another host.
            #expect(!html.contains("src=\"http"), "\(slug)")
            #expect(!html.contains("stylesheet\" href=\"http"), "\(slug)")
        }

        // Lod has only the free 2.5 pair: 3-hourly steps and 5 days.
        let lod = try page(site, "lod-il/index.html")
        #expect(lod.contains("every 3 hours"))
        #expect(count("<tr><th scope=\"row\">", in: lod) <= 17)
        #expect(count("<tr><th scope=\"row\">", in: lod) >= 15)
        #expect(count("<span class=\"day-name\">", in: lod) == 5)
        // forecast.json: One Call's hours and days and the free API's steps and days keep
        // pressure, dew point, cloud cover, gusts… (issue 15).
        for (slug, hourKeys, dayKeys) in [
            ("london-gb", ["pressure", "dewPoint", "uvIndex", "cloudCover", "visibility", "windGust"], ["windGust", "humidity", "pressure", "dewPoint", "cloudCover"]),
            ("lod-il", ["pressure", "dewPoint", "cloudCover", "visibility", "windGust"], ["windGust", "humidity", "pressure", "dewPoint", "cloudCover"]),
        ] {
            let data = try Data(contentsOf: site.url.appendingPathComponent("_site/\(slug)/forecast.json"))
            let forecast = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["forecast"] as? [String: Any])
            let hours = try #require(forecast["hourly"] as? [[String: Any]])
            let days = try #require(forecast["daily"] as? [[String: Any]])
            for key in hourKeys { #expect(hours.allSatisfy { $0[key] is Double }, "\(slug) hourly \(key)") }
            for key in dayKeys { #expect(days.allSatisfy { $0[key] is Double }, "\(slug) daily \(key)") }
        }

        // New York is imperial; London is metric.
        #expect(try page(site, "new-york-us/index.html").contains("mph"))
        #expect(try page(site, "london-gb/index.html").contains("m/s"))

        // Places show on the four place cities only, with escaped names.
        for slug in ["london-gb", "paris-fr", "rome-it", "new-york-us"] {
            #expect(try page(site, "\(slug)/index.html").contains("Places to visit"), "\(slug)")
        }
        for slug in ["berlin-de", "lod-il", "tokyo-jp", "sao-paulo-br"] {
            #expect(!(try page(site, "\(slug)/index.html").contains("Places to visit")), "\(slug)")
        }
        #expect(try page(site, "paris-fr/index.html").contains("Musée d&#39;Orsay"))

        // Public/ is copied verbatim under assets/.
        let icon = try Data(contentsOf: site.url.appendingPathComponent("_site/assets/icons/01d.svg"))
        #expect(icon == (try Data(contentsOf: TestPaths.repository.appendingPathComponent("Public/icons/01d.svg"))))
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/assets/style.css").path))

        // Besides the cities' folders, the top of the site holds exactly the names no slug
        // may take (issue 12, item 5): a new top-level file must join SiteLayout's list.
        let top = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("_site").path)
        #expect(Set(top) == Set(slugs + SiteLayout.topLevelNames))

        // The pinned clock makes the build reproducible: a second run writes nothing.
        let again = try await run(["build", "--quiet"], in: site.url)
        #expect(again.status == 0)
        #expect(again.stderr.isEmpty, "\(again.stderr)")
        let third = try await run(["build"], in: site.url)
        #expect(third.stderr.contains(" 0 files written"), "\(third.stderr)")
    }

    @Test func aCityWithoutDataFailsAloneWithExitCode2() async throws {
        let site = try demoSite()
        defer { site.cleanup() }
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("Samples/rome-it"))
        try Data("<html>oops</html>".utf8).write(to: site.url.appendingPathComponent("Samples/tokyo-jp/onecall.json"))
        let result = try await run(["build"], in: site.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Rome"))
        #expect(result.stderr.contains("no snapshot"))
        #expect(result.stderr.contains("Tokyo"))
        #expect(result.stderr.contains("HTML"))
        #expect(result.stderr.contains("built 6 of 8 cities"))
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/london-gb/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/rome-it/index.html").path))
        // Joined as English joins a list (CLDR's pattern, through Foundation).
        #expect(try page(site, "index.html").contains("No current data for: Rome (IT) and Tokyo (JP)</p>"))
    }

    /// Issue 17, item 8: the message names the missing file.
    @Test func aMissingSnapshotFileIsNamed() async throws {
        let site = try demoSite()
        defer { site.cleanup() }
        let lod = site.url.appendingPathComponent("Samples/lod-il")
        try FileManager.default.removeItem(at: lod.appendingPathComponent("forecast.json"))
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("Samples/rome-it"))
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("Samples/paris-fr/onecall.json"))
        let result = try await run(["build"], in: site.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(lod.path)/forecast.json: error: no snapshot: weather.json is there but forecast.json is missing (the free API needs both)"), "\(result.stderr)")
        #expect(result.stderr.contains("rome-it: error: no snapshot: the folder does not exist;"), "\(result.stderr)")
        #expect(result.stderr.contains("paris-fr: error: no snapshot: the folder has only air_pollution.json, geocode.json;"), "\(result.stderr)")
    }

    @Test func aBadConfigExits1AndWritesNothing() async throws {
        let site = try demoSite()
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
            .replacingOccurrences(of: "units: imperial", with: "units: imperail")
        try Data(text.utf8).write(to: config)
        let result = try await run(["build"], in: site.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("isobar.yml:"))
        #expect(result.stderr.contains("cities[3].units"))
        #expect(result.stderr.contains("did you mean \"imperial\""))
        #expect(!result.stderr.contains("Fatal error"))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path))
        let check = try await run(["check"], in: site.url)
        #expect(check.status == 1)
        #expect(check.stderr.contains("cities[3].units"))
    }

    @Test func checkVersionAndUsage() async throws {
        let site = try demoSite()
        defer { site.cleanup() }
        let check = try await run(["check"], in: site.url)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("ok: 8 cities, 13 templates, 20 places"))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path))
        let version = try await run(["--version"], in: site.url)
        #expect(version.status == 0)
        #expect(version.stdout.contains("isobar \(Version.isobar)"))
        #expect(version.stdout.contains("libcurl"))
        let usage = try await run(["build", "--no-such-flag"], in: site.url)
        #expect(usage.status == 64)
        let missing = try await run(["build", "--config", "nope.yml"], in: site.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.yml"))
    }

    @Test func outputOptionOverridesTheConfig() async throws {
        let site = try demoSite()
        defer { site.cleanup() }
        let result = try await run(["build", "--output", "public_html", "--quiet"], in: site.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public_html/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path))
    }

    @Test func buildsTheOpenMeteoDemo() async throws {
        let site = try TemporaryFolder.demoSite(items: ["isobar-open-meteo.yml", "Samples", "Templates", "Public", "Data"])
        defer { site.cleanup() }
        let check = try await run(["check", "--config", "isobar-open-meteo.yml"], in: site.url)
        #expect(check.status == 0, "\(check.stderr)")
        let result = try await run(["build", "--config", "isobar-open-meteo.yml"], in: site.url)
        #expect(result.status == 0, "\(result.stderr)")
        for slug in ["oslo-no", "lisbon-pt"] {
            let html = try String(contentsOf: site.url.appendingPathComponent("_site-open-meteo/\(slug)/index.html"), encoding: .utf8)
            #expect(html.contains("Open-Meteo.com"))
            #expect(count("<tr><th scope=\"row\">", in: html) == 48)
            #expect(count("<span class=\"day-name\">", in: html) == 8)
            #expect(!html.contains("class=\"alerts\""))
        }
        let oslo = try String(contentsOf: site.url.appendingPathComponent("_site-open-meteo/oslo-no/index.html"), encoding: .utf8)
        #expect(oslo.contains("Overcast"))  // WMO 3, in the UI language
        #expect(oslo.contains("icons/04d.svg"))
        // forecast.json keeps every hourly value the body has, and the day's gust (issue 15).
        let data = try Data(contentsOf: site.url.appendingPathComponent("_site-open-meteo/oslo-no/forecast.json"))
        let forecast = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["forecast"] as? [String: Any])
        let hours = try #require(forecast["hourly"] as? [[String: Any]])
        for key in ["pressure", "dewPoint", "uvIndex", "cloudCover", "visibility", "windGust", "humidity"] {
            #expect(hours.allSatisfy { $0[key] is Double }, "hourly \(key)")
        }
        #expect((forecast["daily"] as? [[String: Any]])?.allSatisfy { $0["windGust"] is Double } == true)
    }
}
