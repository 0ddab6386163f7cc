import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import IsobarCore

/// A table of hostile strings through every output context: a city's name (config),
/// a place (places.json), an alert and a condition description (the API) land in HTML
/// text and attributes, inline SVG, the Atom feed, JSON and links.
@Suite struct HostileInputTests {
    static let hostile = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(2)>",
        "' onmouseover='alert(3)",
        "javascript:alert(4)",
        "]]></summary><entry>",
        "Tom & \"Jerry\" 'quoted'",
        "\u{202E}fdp.exe\u{202C} \u{2067}rtl\u{2069}",
        "../../etc/passwd",
        "*em* _em_ [x](javascript:alert(5)) `code` # heading",
        "{{t.now}} {{{content}}}",
        "line\nbreak\n\n    indented code",
        "Lon\r\nBcc: x@evil.example\u{0}\u{85}\u{9B}\u{202E}don",
    ]

    /// Tags and attributes that could run script, found by reading each tag's attributes
    /// the way a browser does (quoted values are values, whatever they contain).
    /// Every isolate (U+2066–U+2068) in `text` is closed by a U+2069, and no U+2069 is stray.
    static func isolatesAreClosed(_ text: String) -> Bool {
        var open = 0
        for scalar in text.unicodeScalars {
            if (0x2066...0x2068).contains(scalar.value) { open += 1 }
            if scalar.value == 0x2069 { open -= 1; if open < 0 { return false } }
        }
        return open == 0
    }

    func unsafeMarkup(in html: String) -> [String] {
        var problems: [String] = []
        for tag in html.matches(of: /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>\/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/) {
            let name = String(tag.1).lowercased()
            for attribute in String(tag.2).matches(of: /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/) {
                let key = String(attribute.1).lowercased()
                let value = String(attribute.2 ?? attribute.3 ?? attribute.4 ?? "").lowercased()
                if key.hasPrefix("on") { problems.append("\(key) on <\(name)>") }
                if ["href", "src", "action", "formaction"].contains(key),
                    value.trimmingCharacters(in: .whitespaces).hasPrefix("javascript:") || value.hasPrefix("data:text")
                {
                    problems.append("\(value) in \(key) of <\(name)>")
                }
            }
            // The theme's own scripts, by their files; any other is data turned into markup.
            if name == "script", !["assets/share.js", "assets/offline.js"].contains(where: String(tag.2).contains) { problems.append("script tag") }
            if ["iframe", "object", "embed", "base", "form"].contains(name) { problems.append("<\(name)>") }
        }
        // Markup that only data could have produced.
        if html.contains("<img src=x") || html.contains("<script>") { problems.append("raw markup from data") }
        // An override, or an isolate left open, would reorder the text after it; a closed
        // isolate (kept, MarkupEscaping) only orders what it holds.
        if html.unicodeScalars.contains(where: { (0x202A...0x202E).contains($0.value) }) { problems.append("bidi override") }
        if !Self.isolatesAreClosed(html) { problems.append("unclosed bidi isolate") }
        if html.contains("<em>") || html.contains("<code>") || html.contains("<pre>") { problems.append("markdown from data") }
        return problems
    }

    @Test func theCheckerCatchesWhatItLooksFor() {
        #expect(!unsafeMarkup(in: #"<p><img src=x onerror=alert(1)></p>"#).isEmpty)
        #expect(!unsafeMarkup(in: #"<a href=" javascript:alert(1)">x</a>"#).isEmpty)
        #expect(!unsafeMarkup(in: #"<div title='x' onmouseover='y'>"#).isEmpty)
        #expect(!unsafeMarkup(in: "<script>alert(1)</script>").isEmpty)
        #expect(!unsafeMarkup(in: "<p><em>x</em></p>").isEmpty)
        #expect(unsafeMarkup(in: #"<meta content="&quot;&gt;&lt;img src=x onerror=alert(2)&gt;">"#).isEmpty)
        #expect(unsafeMarkup(in: #"<a href="mailto:?subject=javascript:alert(4)">x</a>"#).isEmpty)
    }

    @Test(arguments: hostile)
    func hostileStringsStayText(_ value: String) async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        // The city's name, from the config (a YAML double-quoted scalar holds anything), less
        // its control characters: the config refuses those at their line (issue 29, item 6;
        // SmallIntegrityTests). The API's and places.json's strings keep them.
        let name = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        let yamlValue = name.unicodeScalars.map { scalar in
            switch scalar {
            case "\\": return "\\\\"
            case "\"": return "\\\""
            case "\n": return "\\n"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                return "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
            default: return String(scalar)
            }
        }.joined()
        let config = site.url.appendingPathComponent("isobar.yml")
        let yaml = try String(contentsOf: config, encoding: .utf8)
            .replacingOccurrences(of: "  - { name: Berlin, country: DE }", with: "  - { name: \"\(yamlValue)\", country: DE, slug: berlin-de }")
        try Data(yaml.utf8).write(to: config)
        // An alert and the current condition's description, from the API.
        let onecall = site.url.appendingPathComponent("Samples/berlin-de/onecall.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: onecall)) as? [String: Any])
        var alerts = try #require(json["alerts"] as? [[String: Any]])
        alerts[0]["event"] = value
        alerts[0]["sender_name"] = value
        alerts[0]["description"] = value
        json["alerts"] = alerts
        var current = try #require(json["current"] as? [String: Any])
        var weather = try #require(current["weather"] as? [[String: Any]])
        weather[0]["description"] = value
        weather[0]["icon"] = value
        current["weather"] = weather
        json["current"] = current
        try JSONSerialization.data(withJSONObject: json).write(to: onecall)
        // A place, from places.json.
        let places: [String: Any] = ["berlin-de": [["name": value, "description": value, "lat": 52.52, "lon": 13.4,
                                                    "wikipedia": value, "image": "x.jpg"]]]
        try JSONSerialization.data(withJSONObject: places).write(to: site.url.appendingPathComponent("Data/places.json"))

        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        for page in ["berlin-de/index.html", "index.html"] {
            let html = try String(contentsOf: site.url.appendingPathComponent("_site/\(page)"), encoding: .utf8)
            #expect(unsafeMarkup(in: html).isEmpty, "\(page): \(unsafeMarkup(in: html))")
            #expect(!html.contains("etc/passwd.svg"))
        }
        let city = try String(contentsOf: site.url.appendingPathComponent("_site/berlin-de/index.html"), encoding: .utf8)
        // The share link carries the name too: no line break, control or bidi character,
        // raw or percent-encoded (issue 12, item 7).
        let mailto = try #require(city.firstMatch(of: /href="(mailto:[^"]*)"/)).1
        for encoded in ["%0A", "%0D", "%00", "%09", "%C2%85", "%C2%9B", "%E2%80%AE", "%E2%81%A7"] {
            #expect(!mailto.uppercased().contains(encoded), "\(encoded) in \(mailto)")
        }
        #expect(!mailto.unicodeScalars.contains { $0.value < 0x20 || MarkupEscaping.isDropped($0) })
        #expect(!city.unicodeScalars.contains { MarkupEscaping.isDropped($0) && !(0x2066...0x2069).contains($0.value) })
        #expect(Self.isolatesAreClosed(city))
        for svg in city.matches(of: /<svg class="(map|chart)"[\s\S]*?<\/svg>/) {
            #expect(XMLParser(data: Data(String(svg.0).utf8)).parse(), "inline SVG stays well-formed")
        }
        let feed = try Data(contentsOf: site.url.appendingPathComponent("_site/alerts.xml"))
        #expect(XMLParser(data: feed).parse(), "the feed stays well-formed")
        let sitemap = try Data(contentsOf: site.url.appendingPathComponent("_site/sitemap.xml"))
        #expect(XMLParser(data: sitemap).parse())
        // JSON keeps the value exactly, escaped as JSON.
        let forecast = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: site.url.appendingPathComponent("_site/berlin-de/forecast.json"))) as? [String: Any])
        let location = try #require((forecast["forecast"] as? [String: Any])?["location"] as? [String: Any])
        #expect(location["name"] as? String == name)
        // Nothing was written outside the output folder.
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("etc").path))
    }

    /// Deeply nested, huge, invalid UTF-8 and empty inputs: a clear message, never a crash.
    @Test func brokenFilesGiveClearErrors() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let samples = site.url.appendingPathComponent("Samples")
        try Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
            .write(to: samples.appendingPathComponent("london-gb/onecall.json"))
        try Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]).write(to: samples.appendingPathComponent("paris-fr/onecall.json"))
        try Data().write(to: samples.appendingPathComponent("rome-it/onecall.json"))
        try Data().write(to: samples.appendingPathComponent("tokyo-jp/air_pollution.json"))
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("Too many nested"), "\(run.stderr)")
        #expect(run.stderr.contains("paris-fr/onecall.json"))
        #expect(run.stderr.contains("rome-it/onecall.json: error: the response is empty"))
        #expect(run.stderr.contains("tokyo-jp/air_pollution.json: error: the response is empty"))
        #expect(run.stderr.contains("built 4 of 8 cities"))
        for crash in ["Fatal error", "Stack dump", "Segmentation", "backtrace"] { #expect(!run.stderr.contains(crash)) }

        // The same for the config and places.json.
        try Data([0xFF, 0xFE, 0x00]).write(to: site.url.appendingPathComponent("Data/places.json"))
        let places = try await IsobarRun.launch(["check"], in: site.url)
        #expect(places.status == 1)
        #expect(places.stderr.contains("places.json: error: places: not valid JSON"), "\(places.stderr)")
        try Data((String(repeating: "[", count: 100_000)).utf8).write(to: site.url.appendingPathComponent("isobar.yml"))
        let config = try await IsobarRun.launch(["check"], in: site.url)
        #expect(config.status == 1)
        #expect(config.stderr.contains("YAML syntax"), "\(config.stderr)")
        #expect(config.stderr.count < 2_000)
    }
}

extension HostileInputTests {
    /// Nine lists of nine, each made of the one before: 9^9 values from a few hundred bytes.
    static let nestedAliases = (1...8).map { level in
        "x\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]"
    }

    static let aliasBombs: [(name: String, yaml: String, line: Int, column: Int, keyPath: String)] = [
        // In a key: Yams hashes every key to find duplicates, expanding the aliases in it —
        // this one kept `isobar check` busy for minutes (issue 12, item 4).
        ("key", (["x0: &a0 [l, l, l, l, l, l, l, l, l]"] + nestedAliases + ["? *a8", ": 1"]).joined(separator: "\n") + "\n",
         6, 10, "x5[0]"),
        // The same, the key's alias on a line of its own.
        ("multi-line key", (["x0: &a0 [l, l, l, l, l, l, l, l, l]"] + nestedAliases + ["?", "  - *a8", ": 1"]).joined(separator: "\n") + "\n",
         6, 10, "x5[0]"),
        // "Billion laughs" in a value: the same lists, all inside `title`.
        ("value", "base_url: https://w.example.org/\ncities: [{ name: Oslo, country: NO }]\ntitle:\n  - &a0 [l, l, l, l, l, l, l, l, l]\n"
            + nestedAliases.map { "  - " + $0.drop { $0 != "&" } }.joined(separator: "\n") + "\n",
         9, 10, "title[5][0]"),
    ]

    /// Issue 12, item 4: aliases that would expand past any config stop `check` and `build`
    /// at once, at the line where they do. The time limit is generous on purpose (the
    /// machine may be busy); the key bomb alone ran for minutes before.
    @Test(arguments: aliasBombs.indices)
    func aliasBombsStopAtOnceWithAPosition(_ index: Int) async throws {
        let bomb = Self.aliasBombs[index]
        #expect(bomb.yaml.utf8.count < 700, "\(bomb.yaml.utf8.count) bytes")
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Data"])
        defer { site.cleanup() }
        _ = try site.write(bomb.yaml, to: "isobar.yml")
        for command in ["check", "build"] {
            let run = try await IsobarRun.launch([command], in: site.url, timeout: 30)
            #expect(!run.timedOut, "\(bomb.name) bomb: \(command) still running after 30 s")
            #expect(run.status == 1)
            #expect(run.stderr.hasPrefix(
                "\(site.url.path)/isobar.yml:\(bomb.line):\(bomb.column): error: \(bomb.keyPath): aliases make the document larger than 100000 values"),
                "\(bomb.name) bomb, \(command): \(run.stderr)")
            #expect(run.stderr.contains("hint: each *alias repeats what its &anchor holds"))
        }
    }

    /// The theme's UI strings are YAML too, read the same way.
    @Test func anAliasBombInTheUIStringsStopsAtOnce() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        _ = try site.write(Self.aliasBombs[0].yaml, to: "Templates/i18n/en.yml")
        let run = try await IsobarRun.launch(["check"], in: site.url, timeout: 30)
        #expect(!run.timedOut, "still running after 30 s")
        #expect(run.status == 1)
        #expect(run.stderr.contains("Templates/i18n/en.yml:6:10: error: x5[0]: aliases make the document larger than 100000 values"), "\(run.stderr)")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
