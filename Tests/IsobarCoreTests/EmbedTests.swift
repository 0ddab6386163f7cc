import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import IsobarCore

/// Issue 34, "embeddable": `<slug>/widget.html` and `<slug>/now.svg`, through the real
/// binary on a copy of the demo site. (In a browser: Tests/browser/test_embed.py.)
@Suite struct EmbedTests {
    func text(_ site: TemporaryFolder, _ path: String) throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("_site/\(path)"), encoding: .utf8)
    }

    @Test func widgetAndBadgeEscapeTheCityAndLinkTheFullPage() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        // A city name with every character markup must escape.
        let config = site.url.appendingPathComponent("isobar.yml")
        let yaml = try String(contentsOf: config, encoding: .utf8)
        #expect(yaml.contains("name: London,"))
        try Data(yaml.replacingOccurrences(of: "name: London,", with: #"name: "Lon<don> & \"Co\"", slug: london-gb,"#).utf8).write(to: config)
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 0, "\(run.stderr)")

        let widget = try text(site, "london-gb/widget.html")
        #expect(widget.contains("Lon&lt;don&gt; &amp; &quot;Co&quot;"), "\(widget)")
        #expect(!widget.contains("<don>"))
        #expect(widget.contains(#"<a class="widget" href="index.html" target="_top">"#))
        #expect(!widget.contains("<script"), "no scripts in the widget")
        #expect(widget.contains(#"src="../assets/icons/"#), "the icon, from the widget's folder")

        let badge = try text(site, "london-gb/now.svg")
        #expect(badge.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40""#))
        #expect(badge.contains("<title>Lon&lt;don&gt; &amp; &quot;Co&quot;: 9°C"), "\(badge)")
        #expect(XMLParser(data: Data(badge.utf8)).parse(), "well-formed standalone SVG")
        #expect(!badge.contains("href="), "nothing loaded from elsewhere")

        // Both are the city's files: a rebuild with the same data rewrites neither, and a
        // city removed from the config takes them with it.
        let stamp = { (path: String) in
            try FileManager.default.attributesOfItem(atPath: site.url.appendingPathComponent("_site/\(path)").path)[.modificationDate] as? Date
        }
        let before = try [stamp("london-gb/widget.html"), stamp("london-gb/now.svg")]
        try await Task.sleep(for: .milliseconds(1100))
        #expect(try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"]).status == 0)
        #expect(try [stamp("london-gb/widget.html"), stamp("london-gb/now.svg")] == before)
        let manifest = try text(site, Manifest.fileName)
        #expect(manifest.contains(#"london-gb\/widget.html"#) && manifest.contains(#"london-gb\/now.svg"#), "\(manifest.prefix(400))")
    }

    /// The widget and the badge load no stylesheet: their colours are the theme's, from
    /// `style.css`, and a site that changes them there gets new ones on its next build.
    @Test func theWidgetAndBadgeTakeTheirColoursFromTheTheme() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let build = { try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"]) }
        await #expect(try build().status == 0)
        let widget = try text(site, "london-gb/widget.html")
        #expect(widget.contains(":root { --bg: #f6f8fb; --surface: #ffffff; --text: #1b2430;"), "\(widget.prefix(900))")
        #expect(widget.contains("@media (prefers-color-scheme: dark) { :root { --bg: #0f172a; --surface: #16213a;"))
        #expect(widget.contains("background: var(--surface, Canvas)"))

        let style = site.url.appendingPathComponent("Public/style.css")
        let css = try String(contentsOf: style, encoding: .utf8)
        #expect(css.contains("--surface: #ffffff;"))
        try Data(css.replacingOccurrences(of: "--surface: #ffffff;", with: "--surface: #fffbe6;").utf8).write(to: style)
        await #expect(try build().status == 0)
        #expect(try text(site, "london-gb/widget.html").contains("--surface: #fffbe6;"), "rebuilt with the theme's new colour")
        let badge = try text(site, "london-gb/now.svg")
        #expect(badge.contains("--surface: #fffbe6;") && badge.contains(#"<rect class="badge""#), "\(badge.prefix(700))")
        #expect(XMLParser(data: Data(badge.utf8)).parse(), "still well-formed with its <style>")
    }
}
