import Foundation
import Testing
@testable import IsobarCore

/// The built-in theme: the binary carries the repository's Templates/ and Public/, a site
/// needs only its config, the site's own files win one by one, `theme eject` copies the
/// theme out, and `isobar new` writes a site that builds.
@Suite struct ThemeTests {
    /// Every visible file under `folder`, relative path → bytes.
    static func files(_ folder: URL) -> [String: Data] {
        var found: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: folder.path) ?? NSEnumerator() {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                found[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return found
    }

    @Test func theBuiltinThemeIsTheRepositorysTemplatesAndPublic() {
        for top in [ThemeFiles.templatesFolder, ThemeFiles.publicFolder] {
            let onDisk = Self.files(TestPaths.repository.appendingPathComponent(top))
            let builtin = ThemeFiles.builtin(under: top)
            #expect(!onDisk.isEmpty)
            #expect(builtin == onDisk, "\(top)/ changed: run `python3 Tools/embed-theme.py` to update BuiltinTheme.swift")
        }
    }

    /// A config alone, building from the repository's samples.
    @Test func aSiteNeedsOnlyItsConfig() async throws {
        let site = try TemporaryFolder.bareSite()
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: Fixtures.epoch)
        #expect(run.status == 0 && run.stderr.isEmpty == false, "\(run.stderr)")
        let output = site.url.appendingPathComponent("_site")
        let page = try String(contentsOf: output.appendingPathComponent("london-gb/index.html"), encoding: .utf8)
        #expect(page.contains("<h1") && page.hasSuffix("</html>\n"))
        #expect(try Data(contentsOf: output.appendingPathComponent("assets/style.css")) == ThemeFiles.builtin(under: "Public")["style.css"])
        let check = try await IsobarRun.launch(["check"], in: site.url)
        #expect(check.status == 0 && check.stdout.contains("ok: 2 cities, 13 templates"), "\(check.stdout)\(check.stderr)")
    }

    @Test func theSitesOwnFilesWinOneByOneAndEjectKeepsThem() async throws {
        let site = try TemporaryFolder.bareSite()
        defer { site.cleanup() }
        let index = try #require(ThemeFiles.builtin(under: "Templates")["index.md"]).map { $0 }
        let mine = String(decoding: index, as: UTF8.self) + "\n<p class=\"mine\">My own index</p>\n"
        _ = try site.write(mine, to: "Templates/index.md")
        _ = try site.write("body { color: rebeccapurple; }\n", to: "Public/style.css")
        let first = try await IsobarRun.launch(["build"], in: site.url, environment: Fixtures.epoch)
        #expect(first.status == 0, "\(first.stderr)")
        let output = site.url.appendingPathComponent("_site")
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8).contains("My own index"))
        #expect(try String(contentsOf: output.appendingPathComponent("assets/style.css"), encoding: .utf8) == "body { color: rebeccapurple; }\n")
        // Every other asset is the built-in one.
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("assets/icons/01d.svg").path))
        let city = try String(contentsOf: output.appendingPathComponent("london-gb/index.html"), encoding: .utf8)

        let eject = try await IsobarRun.launch(["theme", "eject"], in: site.url)
        #expect(eject.status == 0 && eject.stdout.contains("kept 2 already there"), "\(eject.stdout)\(eject.stderr)")
        #expect(try String(contentsOf: site.url.appendingPathComponent("Templates/index.md"), encoding: .utf8) == mine)
        #expect(Self.files(site.url.appendingPathComponent("Templates")).count == ThemeFiles.builtin(under: "Templates").count)
        let again = try await IsobarRun.launch(["build"], in: site.url, environment: Fixtures.epoch)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8).contains("My own index"))
        #expect(try String(contentsOf: output.appendingPathComponent("london-gb/index.html"), encoding: .utf8) == city,
                "an ejected file is the built-in one: the page is the same")
        // Ejecting into another folder writes a whole theme there.
        let elsewhere = try await IsobarRun.launch(["theme", "eject", "theme-copy"], in: site.url)
        #expect(elsewhere.status == 0)
        #expect(Self.files(site.url.appendingPathComponent("theme-copy/Public")) == ThemeFiles.builtin(under: "Public"))
    }

    @Test func newWritesASiteThatBuilds() async throws {
        let log = OpenMeteoStandIn.Log()
        let (server, task, port) = try await OpenMeteoStandIn.serve(log)
        defer { task.cancel(); Task { await server.stop() } }
        let metNorway = try MetNorwayStandIn()
        defer { metNorway.stop() }
        // MET Norway and Open-Meteo stand in, and no warnings are asked for (MeteoAlarm's
        // feeds have their own tests): no test touches the internet.
        func local(_ config: URL) throws {
            let local = "http://127.0.0.1:\(port)"
            let text = try String(contentsOf: config, encoding: .utf8)
            #expect(text.contains("\nalerts: auto "))
            try text.replacingOccurrences(of: "\nalerts: auto ", with: "\nalerts: off ")
                .replacingOccurrences(of: "open_meteo:\n", with: "met_norway: { base_url: \"\(metNorway.baseURL)\" }\nopen_meteo:\n  base_url: \(local)\n  geocoding_url: \(local)\n  air_quality_url: \(local)\n")
                .write(to: config, atomically: true, encoding: .utf8)
        }
        let parent = try TemporaryFolder()
        defer { parent.cleanup() }
        let made = try await IsobarRun.launch(["new", "weather"], in: parent.url)
        #expect(made.status == 0 && made.stdout.contains("next: cd weather && isobar serve --sample") && made.stdout.contains("then: isobar build"), "\(made.stdout)\(made.stderr)")
        let site = parent.url.appendingPathComponent("weather")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: site.path)) == ["isobar.yml", "places.json", "README.md"])
        let config = site.appendingPathComponent("isobar.yml")
        #expect(try String(contentsOf: config, encoding: .utf8).contains("\nprovider: [met-norway, open-meteo]\n"))
        try local(config)
        let check = try await IsobarRun.launch(["check"], in: site)
        #expect(check.status == 0 && check.stdout.contains("ok: 3 cities, 13 templates, 1 place"), "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("providers: met-norway → open-meteo"), "\(check.stdout)")
        #expect(check.stderr.contains("contact \"you@example.org\" is an example address"), "\(check.stderr)")
        let built = try await IsobarRun.launch(["build"], in: site)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(try metNorway.requests().count == 3 && metNorway.requests().allSatisfy { $0.user_agent == "isobar/\(Version.isobar) you@example.org" })
        #expect(await log.count("/v1/forecast") == 0, "MET answered for every city")
        for slug in ["london-gb", "lisbon-pt", "tokyo-jp"] {
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("_site/\(slug)/index.html").path), "\(slug)")
        }
        #expect(try String(contentsOf: site.appendingPathComponent("_site/london-gb/index.html"), encoding: .utf8).contains("Tower of London"))
        // Never over a user's files.
        let again = try await IsobarRun.launch(["new", "weather"], in: parent.url)
        #expect(again.status == 1 && again.stderr.contains("the folder is not empty"), "\(again.stderr)")

        // In another language (issue 30): the config says it, and the pages are in it.
        let hebrew = try await IsobarRun.launch(["new", "mezeg", "--language", "he"], in: parent.url)
        #expect(hebrew.status == 0, "\(hebrew.stderr)")
        let hebrewSite = parent.url.appendingPathComponent("mezeg"), hebrewConfig = hebrewSite.appendingPathComponent("isobar.yml")
        #expect(try String(contentsOf: hebrewConfig, encoding: .utf8).contains("\nlanguage: he "))
        try local(hebrewConfig)
        #expect(try await IsobarRun.launch(["build"], in: hebrewSite).status == 0)
        #expect(try String(contentsOf: hebrewSite.appendingPathComponent("_site/index.html"), encoding: .utf8).contains(#"<html lang="he" dir="rtl">"#))
        let unknown = try await IsobarRun.launch(["new", "other", "--language", "xx"], in: parent.url)
        #expect(unknown.status == 1 && unknown.stderr.contains("Isobar ships no strings for language \"xx\"") && unknown.stderr.contains("pt-BR"),
                "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: parent.url.appendingPathComponent("other").path), "nothing written")
    }
}
