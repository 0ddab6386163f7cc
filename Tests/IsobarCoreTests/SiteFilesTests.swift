import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import IsobarCore

/// The site-wide files and the escaping of hostile data, through the real binary.
@Suite struct SiteFilesTests {
    func build(_ site: TemporaryFolder) async throws -> IsobarRun {
        try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
    }

    func text(_ site: TemporaryFolder, _ path: String) throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("_site/\(path)"), encoding: .utf8)
    }

    /// Whether `text` is well-formed XML (what a feed reader or crawler needs first).
    func isWellFormedXML(_ text: String) -> Bool {
        XMLParser(data: Data(text.utf8)).parse()
    }

    /// A file that already holds the bytes, given as a rendered array or as `Data`, is left
    /// alone with its mtime; other bytes of the same length replace it.
    @Test func equalBytesAreLeftAloneWhateverTheirType() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let writer = try SiteWriter(output: folder.url)
        let page: [UInt8] = Array("<p>12 °C</p>".utf8)
        let first = try writer.write(page, to: "city/index.html")
        #expect(try writer.write(Data(page), to: "city/index.html") == first)
        #expect(try writer.write(page, to: "city/index.html") == first)
        #expect(writer.written == ["city/index.html"] && writer.unchanged == ["city/index.html", "city/index.html"])
        try writer.write(Array("<p>13 °C</p>".utf8), to: "city/index.html")
        #expect(writer.written == ["city/index.html", "city/index.html"])
        #expect(try String(contentsOf: folder.url.appendingPathComponent("city/index.html"), encoding: .utf8) == "<p>13 °C</p>")
        try writer.write([UInt8](), to: "empty.txt")
        try writer.write(Data(), to: "empty.txt")
        #expect(writer.unchanged.last == "empty.txt")
    }

    /// Issue 12, item 11: a city that fails keeps its last page, so the sitemap keeps
    /// listing it and the feed its alerts, until they expire.
    @Test func aFailedCityStaysInTheSitemapAndFeed() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        await #expect(try build(site).status == 0)
        let before = try text(site, "sitemap.xml")
        try Data("<html>oops</html>".utf8).write(to: site.url.appendingPathComponent("Samples/new-york-us/onecall.json"))

        let failed = try await build(site)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stderr.contains("New York"))
        let sitemap = try text(site, "sitemap.xml")
        #expect(sitemap.contains("<loc>https://weather.example.org/new-york-us/</loc>"), "\(sitemap)")
        #expect(sitemap == before)
        let feed = try text(site, "alerts.xml")
        #expect(isWellFormedXML(feed))
        #expect(feed.contains(#"href="https://weather.example.org/new-york-us/""#), "\(feed)")
        #expect(feed.contains("2026-11-22T10:00:00Z – 2026-11-22T23:00:00Z"), "valid until: \(feed)")
        #expect(feed.components(separatedBy: "<entry>").count - 1 == 3)

        // After the Wind Advisory's end (2026-11-22 23:00 UTC) it leaves the feed, the page the sitemap.
        let later = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795400000"])
        #expect(later.status == 2)
        let expired = try text(site, "alerts.xml")
        #expect(!expired.contains("new-york-us"), "\(expired)")
        #expect(expired.components(separatedBy: "<entry>").count - 1 == 2)
        #expect(try text(site, "sitemap.xml").contains("<loc>https://weather.example.org/new-york-us/</loc>"))
    }

    /// Issue 28, item 5: links between pages name the page's file, so the site opens from
    /// disk (a browser reading file:// shows `london-gb/` as a folder listing); the public
    /// addresses stay the folder a web host serves. A site built by an older Isobar (whose
    /// manifest, version 3, kept cards linking the folder) links the file once rebuilt, and
    /// keeps every file it had.
    @Test func linksNameThePageFileAndAddressesTheFolder() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        await #expect(try build(site).status == 0)
        for slug in ["london-gb", "new-york-us"] {
            #expect(try text(site, "index.html").contains(#"<a href="\#(slug)/index.html">"#), "\(slug)")
            #expect(try text(site, "sitemap.xml").contains("<loc>https://weather.example.org/\(slug)/</loc>"))
            let page = try text(site, "\(slug)/index.html")
            #expect(page.contains(#"<link rel="canonical" href="https://weather.example.org/\#(slug)/">"#))
            #expect(page.contains(#"<meta property="og:url" content="https://weather.example.org/\#(slug)/">"#))
            #expect(page.contains(#"<a href="https://weather.example.org/\#(slug)/" dir="ltr">"#), "the share link")
            #expect(page.contains(#"<a href="../index.html">"#), "the breadcrumb")
        }
        #expect(try text(site, "alerts.xml").contains(#"href="https://weather.example.org/new-york-us/""#))

        let manifestFile = site.url.appendingPathComponent("_site/\(Manifest.fileName)")
        // As an older Isobar wrote it: version 3, its cities' records unreadable now.
        let older = try String(contentsOf: manifestFile, encoding: .utf8).replacingOccurrences(of: #""version":4"#, with: #""version":3"#)
        #expect(older.contains(#""version":3"#))
        try Data(older.utf8).write(to: manifestFile)
        let rebuilt = try await build(site)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stderr.contains("0 removed"), "\(rebuilt.stderr)")
        let index = try text(site, "index.html")
        #expect(index.contains(#"<a href="london-gb/index.html">"#) && !index.contains(#"href="london-gb/""#), "\(index)")
        #expect(try String(contentsOf: manifestFile, encoding: .utf8).contains(#""version":4"#))
    }

    /// Issue 17, item 6: an alert that starts after the data time is upcoming, not active,
    /// on the index and the page; no feed entry is dated after the feed.
    @Test func upcomingAlertsAreNotCalledActive() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let berlin = site.url.appendingPathComponent("Samples/berlin-de/onecall.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: berlin)) as? [String: Any])
        var alerts = try #require(json["alerts"] as? [[String: Any]])
        let dataTime = try #require((json["current"] as? [String: Any])?["dt"] as? Int)
        alerts[1]["start"] = dataTime + 7 * 3600
        json["alerts"] = alerts
        try JSONSerialization.data(withJSONObject: json).write(to: berlin)
        await #expect(try build(site).status == 0)

        let index = try text(site, "index.html")
        #expect(index.contains("2 alerts (1 upcoming)"), "\(index)")
        #expect(index.contains("1 active alert"))  // New York's, in force
        let page = try text(site, "berlin-de/index.html")
        #expect(page.components(separatedBy: #"<strong class="alert-upcoming">Upcoming</strong>"#).count - 1 == 1)
        let feed = try text(site, "alerts.xml")
        let feedUpdated = try #require(feed.firstMatch(of: /<updated>([^<]+)<\/updated>/)).1
        for entry in feed.matches(of: /<entry>[\s\S]*?<updated>([^<]+)<\/updated>/) {
            #expect(entry.1 <= feedUpdated, "an entry newer than its feed: \(entry.1) > \(feedUpdated)")
        }
        // Only upcoming alerts: say so.
        alerts[0]["start"] = dataTime + 3600
        json["alerts"] = alerts
        try JSONSerialization.data(withJSONObject: json).write(to: berlin)
        await #expect(try build(site).status == 0)
        #expect(try text(site, "index.html").contains("2 upcoming alerts"))
    }

    @Test func sitemapRobotsFeedNotFoundAndForecastJSON() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let run = try await build(site)
        #expect(run.status == 0, "\(run.stderr)")

        let sitemap = try text(site, "sitemap.xml")
        #expect(isWellFormedXML(sitemap))
        #expect(sitemap.contains("<loc>https://weather.example.org/</loc>"))
        #expect(sitemap.contains("<loc>https://weather.example.org/sao-paulo-br/</loc>"))
        #expect(sitemap.components(separatedBy: "<url>").count - 1 == 9)

        #expect(try text(site, "robots.txt") == "User-agent: *\nAllow: /\nSitemap: https://weather.example.org/sitemap.xml\n")

        let feed = try text(site, "alerts.xml")
        #expect(isWellFormedXML(feed))
        #expect(feed.contains(#"<feed xmlns="http://www.w3.org/2005/Atom">"#))
        // New York has one alert, Berlin two.
        #expect(feed.components(separatedBy: "<entry>").count - 1 == 3)
        #expect(feed.contains("<title>Berlin: Frost</title>"))
        #expect(feed.contains(#"href="https://weather.example.org/new-york-us/""#))

        let notFound = try text(site, "404.html")
        #expect(notFound.contains("Page not found"))
        #expect(notFound.contains(#"href="/assets/style.css""#))  // absolute: served at any depth
        #expect(notFound.contains(#"<meta name="robots" content="noindex">"#))

        let data = try Data(contentsOf: site.url.appendingPathComponent("_site/lod-il/forecast.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["slug"] as? String == "lod-il")
        let forecast = try #require(json["forecast"] as? [String: Any])
        #expect((forecast["daily"] as? [Any])?.count == 5)
        #expect((forecast["source"] as? [String: Any])?["api"] as? String == "openweather/free")

        // Pages carry no build time: a later build of the same data changes nothing.
        let later = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795999999"])
        #expect(later.stderr.contains(" 0 files written"), "\(later.stderr)")

        // A page changed or deleted by hand since is rebuilt, though its data did not change.
        let tokyo = site.url.appendingPathComponent("_site/tokyo-jp/index.html")
        let tokyoPage = try Data(contentsOf: tokyo)
        try Data("edited".utf8).write(to: tokyo)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("_site/rome-it/forecast.json"))
        let repaired = try await IsobarRun.launch(["build"], in: site.url)
        #expect(repaired.stderr.contains(" 2 files written"), "\(repaired.stderr)")
        #expect(try Data(contentsOf: tokyo) == tokyoPage)

        // Snapshots are told unchanged by size and mtime (as make and rsync do), so a
        // rebuild does not read them: garbage of the same size and time goes unnoticed…
        let paris = site.url.appendingPathComponent("Samples/paris-fr/onecall.json")
        let parisBody = try Data(contentsOf: paris)
        var status = stat()
        #expect(stat(paris.path, &status) == 0)
        try Data(repeating: UInt8(ascii: "x"), count: parisBody.count).write(to: paris)
        var times = [status.st_atim, status.st_mtim]  // to the nanosecond
        #expect(utimensat(AT_FDCWD, paris.path, &times, 0) == 0)
        let untouched = try await IsobarRun.launch(["build"], in: site.url)
        #expect(untouched.status == 0 && untouched.stderr.contains(" 0 files written"), "\(untouched.stderr)")
        // …and a snapshot replaced by new data is read, and its city rebuilt.
        let original = String(decoding: parisBody, as: UTF8.self)
        let warmer = original.replacingOccurrences(of: "\"temp\": 8.89", with: "\"temp\": 18.89")
        #expect(warmer != original)
        try Data(warmer.utf8).write(to: paris)
        let changed = try await IsobarRun.launch(["build"], in: site.url)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try String(contentsOf: site.url.appendingPathComponent("_site/paris-fr/forecast.json"), encoding: .utf8).contains("18.89"))
    }

    /// Issue 17, item 10: with no UI strings for the language, the page is English and
    /// marked so, dates included; the API's descriptions keep their own `lang`.
    @Test func aLanguageWithoutUIStringsIsMarkedAsEnglish() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        let yaml = try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "language: en", with: "language: sw")
        try Data(yaml.utf8).write(to: config)
        let run = try await build(site)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("no UI strings for language \"sw\""), "\(run.stderr)")
        let london = try text(site, "london-gb/index.html")
        #expect(london.contains(#"<html lang="en" dir="ltr">"#))
        // Its condition is described by the (English) strings, so in the page's language.
        #expect(london.contains(#"<p class="now-desc" lang="en">"#))
        #expect(london.contains("Sun, Nov 22"), "dates in the page's language")
        #expect(try text(site, "index.html").contains(#"<html lang="en" dir="ltr">"#))
        #expect(Strings.htmlLanguage("pt_br") == "pt-BR" && Strings.htmlLanguage("de") == "de")
    }

    /// Issue 17: moonrise and moonset beside the moon phase, alert tags as labels, and
    /// forecast.json reading back as the same forecast with them.
    @Test func moonTimesAndAlertTagsAreShown() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        await #expect(try build(site).status == 0)
        let berlin = try text(site, "berlin-de/index.html")
        #expect(berlin.contains(#"<dt>Moonrise</dt><dd><bdi dir="ltr">15:01</bdi></dd>"#) && berlin.contains(#"<dt>Moonset</dt><dd><bdi dir="ltr">04:48</bdi></dd>"#), "\(berlin)")
        #expect(berlin.contains(#"<ul dir="auto" class="alert-tags" aria-label="Categories"><li>Extreme low temperature</li></ul>"#))
        #expect(berlin.contains("<li>Snow/Ice</li>"))
        struct Document: Decodable { var forecast: Forecast }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let document = try decoder.decode(Document.self, from: Data(contentsOf: site.url.appendingPathComponent("_site/berlin-de/forecast.json")))
        #expect(document.forecast.daily.first?.moonrise == Date(timeIntervalSince1970: 1_795_356_060))
        #expect(document.forecast.alerts.map(\.tags) == [["Extreme low temperature"], ["Snow/Ice"]])
    }

    @Test func germanSite() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        let yaml = try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "language: en", with: "language: de")
        try Data(yaml.utf8).write(to: config)
        let run = try await build(site)
        #expect(run.status == 0, "\(run.stderr)")
        let berlin = try text(site, "berlin-de/index.html")
        #expect(berlin.contains(#"<html lang="de" dir="ltr">"#))
        #expect(berlin.contains(#"<p class="now-desc" lang="de">"#))
        #expect(berlin.contains("Wetterwarnungen"))
        #expect(berlin.contains("Die nächsten 48 Stunden"))
        #expect(berlin.contains("Luftfeuchtigkeit"))
        #expect(try text(site, "index.html").contains("Alle Städte") == false)  // the index has no breadcrumb
    }

    /// Hostile strings from `places.json` reach HTML text, attributes, inline SVG and
    /// link targets: none may become markup, script or a `javascript:` link.
    @Test func hostilePlacesAreEscapedEverywhere() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let hostile: [[String: Any]] = [
            ["name": "<script>alert('x')</script>", "description": "<img src=x onerror=alert(1)> *bold* [link](javascript:alert(2))",
             "lat": 51.5, "lon": -0.12, "wikipedia": "javascript:alert(3)"],
            ["name": "\"><svg onload=alert(4)>", "description": "]]> </title> \u{202E}evil \u{0007}bell\n\n# Heading\n\n    code",
             "lat": 51.51, "lon": -0.13, "wikipedia": "https://en.wikipedia.org/wiki/A\"onmouseover=\"alert(5)"],
            ["name": "../../etc/passwd", "description": "{{t.now}} {{{content}}}", "lat": 51.52, "lon": -0.11, "image": "etc-passwd.jpg"],
        ]
        let data = try JSONSerialization.data(withJSONObject: ["london-gb": hostile])
        try data.write(to: site.url.appendingPathComponent("Data/places.json"))
        let run = try await build(site)
        #expect(run.status == 0, "\(run.stderr)")
        let html = try text(site, "london-gb/index.html")
        for forbidden in ["<script>alert", "<img src=x", "<svg onload", "href=\"javascript:", "<em>bold", "<h1>Heading",
                          "<pre><code>", "\"onmouseover=\"", "etc/passwd\"", "\u{0007}"] {
            #expect(!html.contains(forbidden), "found \(forbidden)")
        }
        #expect(html.contains("&lt;script&gt;"))
        // The inline SVG map is still well-formed XML with the names as text.
        let mapStart = try #require(html.range(of: "<svg class=\"map\""))
        let mapEnd = try #require(html.range(of: "</svg>", range: mapStart.upperBound..<html.endIndex))
        #expect(isWellFormedXML(String(html[mapStart.lowerBound..<mapEnd.upperBound])))
        // An image name that is a path is refused outright.
        let withPath: [String: Any] = ["london-gb": [["name": "x", "description": "y", "lat": 51.5, "lon": -0.1, "image": "../../../etc/passwd"]]]
        try JSONSerialization.data(withJSONObject: withPath).write(to: site.url.appendingPathComponent("Data/places.json"))
        let refused = try await build(site)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("london-gb[0].image: \"../../../etc/passwd\" must be a plain file name"), "\(refused.stderr)")
        // Mustache in data stays text.
        #expect(html.contains("&#123;&#123;t.now&#125;&#125;"))
    }

    @Test func hostileAlertsAreEscapedInTheFeed() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let file = site.url.appendingPathComponent("Samples/berlin-de/onecall.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var alerts = try #require(json["alerts"] as? [[String: Any]])
        alerts[0]["event"] = "]]><script>alert(1)</script>"
        alerts[0]["sender_name"] = "</name></author><entry>"
        alerts[0]["description"] = "Fine & <b>bold</b> \"quoted\" 'single'"
        json["alerts"] = alerts
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let run = try await build(site)
        #expect(run.status == 0, "\(run.stderr)")
        let feed = try text(site, "alerts.xml")
        #expect(isWellFormedXML(feed))
        #expect(!feed.contains("<script>"))
        #expect(feed.components(separatedBy: "<entry>").count - 1 == 3)
        let page = try text(site, "berlin-de/index.html")
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("<b>bold</b>"))
    }
}
