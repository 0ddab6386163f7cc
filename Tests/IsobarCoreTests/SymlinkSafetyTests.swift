import Foundation
import Testing
@testable import IsobarCore

/// Issue 12, items 2 and 6: a symbolic link Isobar did not make, inside the output, the
/// cache or `Public/`, is never written, deleted or published through. Each case runs
/// the real binary and checks the victim's files, bytes and modification times after.
@Suite struct SymlinkSafetyTests {
    /// Every file below `folder` with its bytes and modification time.
    static func fingerprint(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let manager = FileManager.default
        for case let relative as String in manager.enumerator(atPath: folder.path) ?? NSEnumerator() {
            let url = folder.appendingPathComponent(relative)
            let attributes = try manager.attributesOfItem(atPath: url.path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let bytes = (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } ?? "<folder>"
            result[relative] = "\(modified) \(bytes.hashValue) \(bytes.count)"
        }
        return result
    }

    /// A folder outside the site holding files a build would write, with old times.
    static func victim(_ site: TemporaryFolder, named name: String = "victim") throws -> URL {
        let folder = site.url.deletingLastPathComponent().appendingPathComponent("\(site.url.lastPathComponent)-\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in ["index.html", "forecast.json", "secret.txt"] {
            let url = folder.appendingPathComponent(file)
            try Data("not Isobar's \(file)\n".utf8).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: url.path)
        }
        return folder
    }

    func build(_ site: TemporaryFolder) throws -> IsobarRun {
        try IsobarRun(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
    }

    func exists(_ site: TemporaryFolder, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: site.url.appendingPathComponent(path).path)
    }

    @Test func aLinkedCityFolderIsNeitherWrittenNorPrunedThrough() throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let victim = try Self.victim(site)
        defer { try? FileManager.default.removeItem(at: victim) }
        #expect(try build(site).status == 0)
        // Someone replaces London's folder with a link to a folder elsewhere.
        let london = site.url.appendingPathComponent("_site/london-gb")
        try FileManager.default.removeItem(at: london)
        try FileManager.default.createSymbolicLink(at: london, withDestinationURL: victim)
        let before = try Self.fingerprint(victim)

        let run = try build(site)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("\(london.path): error: a symbolic link Isobar did not make"), "\(run.stderr)")
        #expect(try Self.fingerprint(victim) == before)
        #expect(exists(site, "_site/paris-fr/index.html") && exists(site, "_site/index.html"))

        // London leaves the config: pruning its pages must not delete through the link.
        let config = site.url.appendingPathComponent("isobar.yml")
        let yaml = try String(contentsOf: config, encoding: .utf8)
        try yaml.replacingOccurrences(of: "  - { name: London, country: GB }\n", with: "").write(to: config, atomically: true, encoding: .utf8)
        #expect(try String(contentsOf: config, encoding: .utf8) != yaml)
        let pruned = try build(site)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stderr.contains("warning: \(london.path): error: a symbolic link"), "\(pruned.stderr)")
        #expect(try Self.fingerprint(victim) == before)
        var isLink = false
        if let kind = try? FileManager.default.attributesOfItem(atPath: london.path)[.type] as? FileAttributeType { isLink = kind == .typeSymbolicLink }
        #expect(isLink, "the link itself is left alone")
    }

    @Test func aLinkedPageFileIsNotWrittenThrough() throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let victim = try Self.victim(site)
        defer { try? FileManager.default.removeItem(at: victim) }
        #expect(try build(site).status == 0)
        let page = site.url.appendingPathComponent("_site/paris-fr/index.html")
        try FileManager.default.removeItem(at: page)
        try FileManager.default.createSymbolicLink(at: page, withDestinationURL: victim.appendingPathComponent("index.html"))
        // And a link planted under the name the next temporary file would have.
        let before = try Self.fingerprint(victim)
        let run = try build(site)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("\(page.path): error: a symbolic link"), "\(run.stderr)")
        #expect(try Self.fingerprint(victim) == before)
        #expect(exists(site, "_site/london-gb/index.html"))
    }

    @Test func aLinkedLockFileIsLeftAlone() throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let victim = try Self.victim(site)
        defer { try? FileManager.default.removeItem(at: victim) }
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent("_site"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: site.url.appendingPathComponent("_site/.isobar.lock"), withDestinationURL: victim.appendingPathComponent("secret.txt"))
        let before = try Self.fingerprint(victim)
        let run = try build(site)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("the lock file is a symbolic link Isobar did not make"), "\(run.stderr)")
        #expect(try Self.fingerprint(victim) == before)
    }

    @Test func aLinkInTheCacheIsNotWrittenThrough() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        defer { site.cleanup() }
        _ = try site.write("""
            title: Test
            base_url: https://weather.example.org/
            provider: openweather
            openweather: { base_url: \(server.baseURL), timeout: 15s }
            cities:
              - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }
              - { name: Rome, country: IT, lat: 41.8933, lon: 12.4829 }
            """, to: "isobar.yml")
        let victim = try Self.victim(site)
        defer { try? FileManager.default.removeItem(at: victim) }
        let cache = site.url.appendingPathComponent(".isobar/cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: cache.appendingPathComponent("paris-fr"), withDestinationURL: victim)
        let before = try Self.fingerprint(victim)
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: ["OPENWEATHER_API_KEY": OpenWeatherStandIn.key])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("paris-fr: error: a symbolic link Isobar did not make"), "\(run.stderr)")
        #expect(try Self.fingerprint(victim) == before)
        #expect(exists(site, "_site/rome-it/index.html"))
    }

    @Test func publicLinksLeadingOutsideAreNotPublished() throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let victim = try Self.victim(site)
        defer { try? FileManager.default.removeItem(at: victim) }
        let places = site.url.appendingPathComponent("Public/places")
        try FileManager.default.createDirectory(at: places, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: places.appendingPathComponent("x.png"), withDestinationURL: victim.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(at: site.url.appendingPathComponent("Public/elsewhere"), withDestinationURL: victim)
        // A link to a file inside Public/ is the theme's own business: published.
        try FileManager.default.createSymbolicLink(
            at: site.url.appendingPathComponent("Public/main.css"), withDestinationURL: site.url.appendingPathComponent("Public/style.css"))
        let run = try build(site)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("places/x.png: a symbolic link that leads outside the public folder was not published"), "\(run.stderr)")
        #expect(!exists(site, "_site/assets/places/x.png"))
        #expect(!exists(site, "_site/assets/elsewhere/secret.txt"))
        #expect(exists(site, "_site/assets/main.css"))
        let everything = FileManager.default.enumerator(atPath: site.url.appendingPathComponent("_site").path)?.compactMap { $0 as? String } ?? []
        for file in everything where !file.hasSuffix("/") {
            let data = (try? Data(contentsOf: site.url.appendingPathComponent("_site/\(file)"))) ?? Data()
            #expect(!String(decoding: data, as: UTF8.self).contains("not Isobar's secret.txt"), "\(file)")
        }
    }
}
