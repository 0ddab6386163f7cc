import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import IsobarCore

/// A site in several languages (`languages:`): every page in each, at its place; hreflang
/// alternates reciprocal and absolute; switchers, sitemap and feeds that link to pages
/// that exist; and one fetch per city however many languages.
@Suite struct MultilingualTests {
    static let base = "https://weather.example.org/"

    /// The demo in English (top level), Hebrew and Arabic, with Lod's own page in Hebrew.
    static func site() throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite()
        let config = site.url.appendingPathComponent("isobar.yml")
        var yaml = try String(contentsOf: config, encoding: .utf8)
        yaml = yaml.replacingOccurrences(of: "language: en\n", with: "languages: [en, he, ar]\n")
        yaml = yaml.replacingOccurrences(of: "timezone: Asia/Jerusalem }", with: "timezone: Asia/Jerusalem, language: he }")
        try Data(yaml.utf8).write(to: config)
        return site
    }

    /// The file a page's address names.
    static func file(of url: String, in site: URL) -> URL? {
        guard url.hasPrefix(base) else { return nil }
        let path = String(url.dropFirst(base.count))
        return site.appendingPathComponent(path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path)
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let range = tag.range(of: " \(name)=\"") else { return nil }
        return String(tag[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func everyPageIsInEachLanguageAtItsPlace() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 0, "\(run.stderr)")
        let output = site.url.appendingPathComponent("_site")
        func page(_ path: String) throws -> String { try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8) }
        for (path, lang, dir) in [("index.html", "en", "ltr"), ("he/index.html", "he", "rtl"), ("ar/index.html", "ar", "rtl"),
                                  ("london-gb/index.html", "en", "ltr"), ("he/london-gb/index.html", "he", "rtl"),
                                  ("ar/london-gb/index.html", "ar", "rtl"),
                                  // Lod's own language is Hebrew: its top-level page is, English goes to en/.
                                  ("lod-il/index.html", "he", "rtl"), ("en/lod-il/index.html", "en", "ltr"), ("ar/lod-il/index.html", "ar", "rtl"),
                                  ("404.html", "en", "ltr"), ("he/404.html", "he", "rtl"), ("ar/404.html", "ar", "rtl")] {
            #expect(try page(path).contains(#"<html lang="\#(lang)" dir="\#(dir)">"#), "\(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("he/lod-il").path), "the top level has Lod in Hebrew")
        #expect(try page("he/london-gb/index.html").contains("תחזית"), "Hebrew words on the Hebrew page")
        // One forecast.json per city, in the folder at the top level.
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("lod-il/forecast.json").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("he/london-gb/forecast.json").path))

        // hreflang: on every page but the 404s, absolute, reciprocal, with x-default at the top level.
        let pages = FileManager.default.enumerator(atPath: output.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".html") && !$0.hasSuffix("404.html") && !$0.hasSuffix("widget.html") }  // the widgets are no pages
        #expect(pages.count == 3 + 3 * 8)
        var alternatesOf: [String: [String: String]] = [:]  // canonical URL → hreflang → URL
        for path in pages {
            let html = try page(path)
            let canonical = try #require(html.firstMatch(of: /<link rel="canonical" href="([^"]+)">/)).1
            var alternates: [String: String] = [:]
            for match in html.matches(of: /<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/) {
                alternates[String(match.1)] = String(match.2)
            }
            #expect(Set(alternates.keys) == ["en", "he", "ar", "x-default"], "\(path)")
            #expect(alternates.values.allSatisfy { $0.hasPrefix(Self.base) }, "\(path): absolute")
            let lang = String(try #require(html.firstMatch(of: /<html lang="([^"]+)"/)).1)
            #expect(alternates[lang] == String(canonical), "\(path) names itself under its own language")
            alternatesOf[String(canonical)] = alternates
            // The switcher: a link to each language's page, every one a file that exists.
            let switcher = try #require(html.firstMatch(of: /<nav class="language-switcher"[^>]*>(.*?)<\/nav>/)).1
            let links = switcher.matches(of: /<a href="([^"]+)" hreflang="([^"]+)"/).map { (String($0.1), String($0.2)) }
            #expect(links.map(\.1) == ["en", "he", "ar"], "\(path)")
            let folder = output.appendingPathComponent(path).deletingLastPathComponent()
            for (href, hreflang) in links {
                let target = folder.appendingPathComponent(href).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(path): switcher link \(href)")
                #expect(Self.file(of: alternates[hreflang]!, in: output)?.standardizedFileURL.path == target.path, "\(path): \(href)")
            }
        }
        for (canonical, alternates) in alternatesOf {
            for (lang, url) in alternates where lang != "x-default" {
                #expect(alternatesOf[url] == alternates, "\(url) (\(lang)) does not name the same pages as \(canonical)")
            }
            let top = try #require(alternates["x-default"])
            #expect(!top.dropFirst(Self.base.count).contains(/^(en|he|ar)\//), "x-default is at the top level: \(top)")
        }
        #expect(alternatesOf["\(Self.base)lod-il/"]?["he"] == "\(Self.base)lod-il/")
        #expect(alternatesOf["\(Self.base)lod-il/"]?["en"] == "\(Self.base)en/lod-il/")

        // The sitemap: a strict parse; every page once, each with the same alternates as on the page.
        let sitemap = try SitemapReader(data: Data(contentsOf: output.appendingPathComponent("sitemap.xml")))
        #expect(Set(sitemap.urls.keys) == Set(alternatesOf.keys))
        for (url, alternates) in sitemap.urls {
            #expect(alternates == alternatesOf[url], "\(url)")
            #expect(Self.file(of: url, in: output).map { FileManager.default.fileExists(atPath: $0.path) } == true, "\(url)")
        }

        // A feed per language, linking to the pages in it.
        for (feed, prefix) in [("alerts.xml", ""), ("he/alerts.xml", "he/"), ("ar/alerts.xml", "ar/")] {
            let xml = try page(feed)
            #expect(XMLParser(data: Data(xml.utf8)).parse(), "\(feed) is well-formed")
            #expect(xml.contains("<id>\(Self.base)\(feed)</id>"))
            let links = xml.matches(of: /<entry>[\s\S]*?<link rel="alternate" type="text\/html" href="([^"]+)"/).map { String($0.1) }
            #expect(!links.isEmpty && links.allSatisfy { $0.hasPrefix(Self.base + prefix) || $0 == "\(Self.base)lod-il/" }, "\(feed): \(links)")
        }
        #expect(try page("he/index.html").contains(#"href="../he/london-gb/index.html""#))
        #expect(try page("he/404.html").contains(#"<a href="/he/index.html">"#))
    }

    /// Every shipped language builds the demo: one site in all 31, each page marked with
    /// its language and direction, no placeholder left unfilled and no key shown for a word.
    @Test func everyShippedLanguageBuildsTheDemo() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let languages = ["en"] + Fixtures.promisedLanguages.filter { $0 != "en" }
        try edit(site) { $0.replacingOccurrences(of: "language: en\n", with: "languages: [\(languages.joined(separator: ", "))]\n") }
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        let english = try Strings.load(templates: Fixtures.templates, language: "en").strings
        let keys = Set(english.table.keys).union(english.plurals.keys).filter { $0.contains("_") }
        for language in languages {
            let folder = language == "en" ? "" : language.lowercased() + "/"
            let direction = ["ar", "he", "fa"].contains(language) ? "rtl" : "ltr"
            for path in ["index.html", "london-gb/index.html", "berlin-de/index.html", "new-york-us/index.html"] {
                let html = try String(contentsOf: site.url.appendingPathComponent("_site/\(folder)\(path)"), encoding: .utf8)
                #expect(html.contains(#"<html lang="\#(language)" dir="\#(direction)">"#), "\(language) \(path)")
                // Text only: the page's own script and styles aside.
                let text = html.replacing(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<[^>]+>/, with: " ")
                #expect(text.firstMatch(of: /\{[A-Za-z_]+\}/) == nil, "\(language) \(path): \(text.firstMatch(of: /.{0,40}\{[A-Za-z_]+\}.{0,20}/).map { String($0.0) } ?? "")")
                for key in keys where text.contains(key) {
                    Issue.record("\(language) \(path) shows the key \(key)")
                }
            }
        }
    }

    @Test func aCityLanguageOutsideTheSitesIsRefused() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site) { $0.replacingOccurrences(of: "timezone: Asia/Jerusalem }", with: "timezone: Asia/Jerusalem, language: he }") }
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status != 0 && run.stderr.contains("\"he\" is not one of the site's languages (en)"), "\(run.stderr)")
        #expect(run.stderr.contains("languages: [en, he]"), "the fix")
    }

    @Test func aSlugThatIsALanguagesFolderIsRefused() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site) { $0.replacingOccurrences(of: "language: en\n", with: "languages: [en, he]\n")
            .replacingOccurrences(of: "name: Lod, country: IL,", with: "name: Lod, country: IL, slug: he,") }
        let run = try await IsobarRun.launch(["check"], in: site.url)
        #expect(run.status != 0 && run.stderr.contains("slug \"he\" is the folder of the site's language he"), "\(run.stderr)")
    }

    @Test func aLanguageWithoutStringsIsRefusedInAMultilingualSite() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try edit(site) { $0.replacingOccurrences(of: "language: en\n", with: "languages: [en, sw]\n") }
        for command in ["check", "build"] {
            let run = try await IsobarRun.launch([command], in: site.url)
            #expect(run.status != 0 && run.stderr.contains("no UI strings for language \"sw\""), "\(command): \(run.stderr)")
            #expect(run.stderr.contains("Templates/i18n/sw.yml"), "\(command): the fix")
        }
    }

    /// One fetch per city whatever the languages: 100 cities (several times the cities a
    /// run has in flight at once) cost the same requests in three languages as in one.
    /// Without share cards, which are drawn from the page and ask for nothing.
    @Test func languagesDoNotMultiplyRequests() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        var sent: [Int] = []
        for languages in ["[en]", "[en, he, ar]"] {
            let site = try TownsSite.make(server, cities: 100)
            defer { site.cleanup() }
            try edit(site) { "languages: \(languages)\nshare_card: false\n" + $0 }
            let before = await server.requests().count
            let report = try await TownsSite.build(site, at: Date(timeIntervalSince1970: 1_795_348_800))
            #expect(report.exitCode == 0, "\(report.summary)")
            #expect(report.count("fresh") == 100)
            let seen = await server.requests().dropFirst(before)
            #expect(seen.count == report.sent)
            // What was asked, not how often: a request retried on a busy machine counts once.
            sent.append(Set(seen.map { "\($0.path) \($0.query.sorted { $0.key < $1.key })" }).count)
            let pages = FileManager.default.enumerator(atPath: site.url.appendingPathComponent("_site").path)!
                .compactMap { $0 as? String }.filter { $0.hasSuffix("/index.html") }.count
            #expect(pages == (languages == "[en]" ? 100 : 2 + 3 * 100))
        }
        #expect(sent[0] > 0 && sent[0] == sent[1], "\(sent)")
    }

    func edit(_ site: TemporaryFolder, _ change: (String) -> String) throws {
        let config = site.url.appendingPathComponent("isobar.yml")
        try Data(change(String(contentsOf: config, encoding: .utf8)).utf8).write(to: config)
    }
}

/// A sitemap read by Foundation's XMLParser with namespaces: the sitemap protocol's
/// `urlset`/`url`/`loc`/`lastmod` and the `xhtml:link` alternates, nothing else.
final class SitemapReader: NSObject, XMLParserDelegate {
    static let sitemaps = "http://www.sitemaps.org/schemas/sitemap/0.9", xhtml = "http://www.w3.org/1999/xhtml"
    var urls: [String: [String: String]] = [:]
    private var current: (loc: String, alternates: [String: String], hasLastmod: Bool)?
    private var text = ""
    private var problems: [String] = []

    init(data: Data) throws {
        super.init()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = self
        guard parser.parse(), problems.isEmpty else {
            throw IsobarError(step: .publish, message: "sitemap: \(parser.parserError.map { "\($0)" } ?? "") \(problems)")
        }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        text = ""
        switch (namespaceURI, name) {
        case (Self.sitemaps, "urlset"): break
        case (Self.sitemaps, "url"): current = ("", [:], false)
        case (Self.sitemaps, "loc"), (Self.sitemaps, "lastmod"): break
        case (Self.xhtml, "link"):
            guard attributes["rel"] == "alternate", let lang = attributes["hreflang"], let href = attributes["href"] else {
                problems.append("xhtml:link without rel=alternate, hreflang and href"); return
            }
            current?.alternates[lang] = href
        default: problems.append("unexpected element \(namespaceURI ?? ""):\(name)")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "loc": current?.loc = text
        case "lastmod":
            current?.hasLastmod = text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil
        case "url":
            guard let url = current, !url.loc.isEmpty, url.hasLastmod, urls[url.loc] == nil else { problems.append("bad <url> \(current?.loc ?? "")"); return }
            urls[url.loc] = url.alternates
        default: break
        }
    }
}
