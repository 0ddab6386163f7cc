import Foundation
import Testing
@testable import IsobarCore

/// Issue 34, "works offline on a phone": the web app manifest and the service worker,
/// through the real binary on a copy of the demo site. (The worker itself, offline in a
/// browser: Tests/browser/test_offline.py.)
@Suite struct OfflineTests {
    func build(_ site: TemporaryFolder) async throws -> IsobarRun {
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 0, "\(run.stderr)")
        return run
    }

    func text(_ site: TemporaryFolder, _ path: String) throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("_site/\(path)"), encoding: .utf8)
    }

    func exists(_ site: TemporaryFolder, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/\(path)").path)
    }

    func config(_ site: TemporaryFolder, replacing old: String, with new: String) throws {
        let file = site.url.appendingPathComponent("isobar.yml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(old))
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file)
    }

    /// The version line of sw.js.
    func version(_ site: TemporaryFolder) throws -> String {
        try text(site, "sw.js").split(separator: "\n").first { $0.hasPrefix("const VERSION") }.map(String.init) ?? ""
    }

    @Test func theManifestMakesTheSiteInstallable() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        // A title with every character JSON must escape, and HTML too.
        try config(site, replacing: "title: Isobar Weather", with: #"title: "Wet \"&\" <Windy> \\ Weather""#)
        _ = try await build(site)
        let data = Data(try text(site, "manifest.webmanifest").utf8)
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(manifest["name"] as? String == #"Wet "&" <Windy> \ Weather"#)
        #expect(manifest["short_name"] as? String == #"Wet "&""#)
        #expect(manifest["start_url"] as? String == "./")
        #expect(manifest["scope"] as? String == "./")
        #expect(manifest["display"] as? String == "standalone")
        #expect(manifest["lang"] as? String == "en")
        #expect(manifest["dir"] as? String == "ltr")
        // The theme's colours, from its style.css.
        #expect(manifest["theme_color"] as? String == "#1d5fbf")
        #expect(manifest["background_color"] as? String == "#f6f8fb")
        let icons = try #require(manifest["icons"] as? [[String: String]])
        #expect(icons.map { $0["sizes"] ?? "" } == ["192x192", "512x512", "512x512"])
        #expect(icons.contains { $0["purpose"] == "maskable" })
        for icon in icons {
            // Each one published, a PNG of the size it claims (the IHDR's width and height).
            let png = try Data(contentsOf: site.url.appendingPathComponent("_site/" + (icon["src"] ?? "")))
            #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect("\(width)x\(height)" == icon["sizes"])
        }
        for page in ["index.html", "london-gb/index.html", "404.html"] {
            let html = try text(site, page)
            #expect(html.contains(#"<link rel="manifest" href=""#), "\(page)")
            #expect(html.contains(##"<meta name="theme-color" content="#1d5fbf">"##), "\(page)")
            #expect(html.contains(#"assets/offline.js" data-worker=""#), "\(page)")
        }
        #expect(try text(site, "london-gb/index.html").contains(#"<link rel="manifest" href="../manifest.webmanifest">"#))
    }

    @Test func pagesCarryTheirDataTimeForTheOfflineNote() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        _ = try await build(site)
        let page = try text(site, "london-gb/index.html")
        let updated = try #require(page.firstMatch(of: /<time datetime="([^"]+)"/)?.1)
        #expect(page.contains(#"<p class="offline-note" role="status" hidden data-time="\#(updated)" data-zone="Europe/London" data-text="Offline — data from {time} ({age})"></p>"#), "\(page)")
        // The index: the newest data time, in the visitor's own zone.
        let index = try text(site, "index.html")
        #expect(index.contains(#"<p class="offline-note" role="status" hidden data-time=""#))
        #expect(!index.contains("data-zone="))
        // The 404 page shows no data.
        #expect(!(try text(site, "404.html")).contains("offline-note"))
    }

    @Test func theWorkerKeepsTheIndexAndAssetsAndIsVersionedByThem() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        _ = try await build(site)
        let worker = try text(site, "sw.js")
        #expect(worker.contains(#"importScripts("assets/offline-worker.js");"#))
        let list = try #require(worker.firstMatch(of: /const PRECACHE = (\[.*\]);/)?.1)
        let precache = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String])
        for path in ["index.html", "manifest.webmanifest", "assets/style.css", "assets/share.js", "assets/offline.js",
                     "assets/offline-worker.js", "assets/icons/02d.svg", "assets/app/icon-192.png"] {
            #expect(precache.contains(path), "\(path)")
        }
        #expect(!precache.contains { $0.hasPrefix("assets/places/") }, "places' images are kept as pages show them")
        let first = try version(site)
        #expect(first.count > 20)

        // Rebuilt with other data (a later clock) but the same theme: the same worker.
        let later = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795352400"])
        #expect(later.status == 0)
        #expect(try version(site) == first)

        // An asset changed: a new version, so browsers install the new worker.
        let css = site.url.appendingPathComponent("Public/style.css")
        try Data((try String(contentsOf: css, encoding: .utf8) + "\n.x { color: red; }\n").utf8).write(to: css)
        _ = try await build(site)
        let second = try version(site)
        #expect(second != first)

        // The manifest changed (a new title): a new version too.
        try config(site, replacing: "title: Isobar Weather", with: "title: Isobar Weather Two")
        _ = try await build(site)
        #expect(try version(site) != second)
    }

    @Test func offlineFalseDropsTheWorkerAndKeepsTheManifest() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        _ = try await build(site)
        #expect(exists(site, "sw.js"))
        try config(site, replacing: "title: Isobar Weather", with: "title: Isobar Weather\noffline: false")
        _ = try await build(site)
        #expect(!exists(site, "sw.js"), "the worker is removed from a site that had it")
        #expect(exists(site, "manifest.webmanifest"))
        for page in ["index.html", "london-gb/index.html"] {
            let html = try text(site, page)
            #expect(html.contains(#"<link rel="manifest""#))
            #expect(!html.contains("offline.js"), "\(page)")
            #expect(!html.contains("offline-note"), "\(page)")
        }
    }

    @Test func offlineMustBeTrueOrFalse() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        try config(site, replacing: "title: Isobar Weather", with: "title: Isobar Weather\noffline: no")
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("expected true or false"), "\(run.stderr)")
        #expect(run.stderr.contains("offline"), "\(run.stderr)")
    }

    @Test func themeColorsComeFromTheStylesheetsFirstHexDeclaration() {
        #expect(ThemeColors.color(named: "--accent", in: ":root { --bg: #FFF; --accent: #1D5FBF; }\n@media { --accent: #000; }") == "#1d5fbf")
        #expect(ThemeColors.color(named: "--bg", in: ":root { --bg: #FFF; }") == "#fff")
        #expect(ThemeColors.color(named: "--accent", in: ":root { --accent: var(--x); }") == nil)
        #expect(ThemeColors.color(named: "--accent", in: ":root { --accent: #12\"><script>; }") == nil)
        #expect(ThemeColors.color(named: "--accent", in: "body { color: red }") == nil)
        // The widget's palette: the hex variables of the light and the dark `:root`, and
        // nothing else of the stylesheet (a value that could end its <style> is left out).
        let css = """
            :root {\n  --bg: #F6F8FB;\n  --surface: #fff;\n  --shadow: 0 1px 2px rgba(0,0,0,.2);\n  color-scheme: light dark;\n  --x: #12</style><script>;\n}
            body { --late: #000; }
            @media (prefers-color-scheme: dark) {\n  :root {\n    --bg: #0f172a;\n    --surface: #16213a;\n  }\n}
            """
        #expect(ThemeColors.palette(in: css) == """
            :root { --bg: #f6f8fb; --surface: #fff; }
            @media (prefers-color-scheme: dark) { :root { --bg: #0f172a; --surface: #16213a; } }
            """)
        #expect(ThemeColors.palette(in: ":root { --bg: #fff; }") == ":root { --bg: #fff; }", "no dark block, no dark palette")
        #expect(ThemeColors.palette(in: "body { color: red }").isEmpty)
        #expect(WebAppManifest.shortName("Isobar Weather") == "Isobar")
        #expect(WebAppManifest.shortName("Wetterdienstzentrale Nord") == "Wetterdienst")
        #expect(WebAppManifest.shortName("Météo") == "Météo")
    }
}
