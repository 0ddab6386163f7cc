import Foundation
import Testing
@testable import IsobarCore

/// Issue 12, items 2 and 6: no write, rename or delete goes through a symbolic link in
/// the output folder or the cache, and no link in `Public/` publishes what lies outside
/// it — through the real binary on temporary copies of the demo site.
@Suite(.serialized) struct SymlinkSafetyTests {
    /// What a victim folder holds, for before/after comparisons: every entry below it and
    /// the folder itself (links not followed), with its bytes and modification time in
    /// nanoseconds. A file made and removed again inside would change the folder's time.
    struct Entry: Equatable, CustomStringConvertible {
        var kind: mode_t
        var bytes: Data?
        var modified: Int64
        var description: String { "kind \(kind), \(bytes?.count ?? -1) bytes, modified \(modified)" }
    }

    func snapshot(_ folder: URL) -> [String: Entry] {
        var entries: [String: Entry] = [:]
        let names = [""] + (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
        for relative in names {
            let path = relative.isEmpty ? folder.path : folder.path + "/" + relative
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            let kind = status.st_mode & S_IFMT
            entries[relative] = Entry(
                kind: kind, bytes: kind == S_IFREG ? FileManager.default.contents(atPath: path) : nil,
                modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
        }
        return entries
    }

    /// A folder outside the site with files of its own, dated in the past (so a rewrite
    /// with the same bytes would still show), and a file named like Isobar's temporary
    /// files, which a run cleaning up after a killed one must not reach either.
    func victimFolder(_ files: [String: String]) throws -> TemporaryFolder {
        let victim = try TemporaryFolder()
        let old = Date(timeIntervalSince1970: 1_600_000_000)
        for (name, text) in files.merging([".index.html\(AtomicFile.temporaryMarker)12345": "not Isobar's"], uniquingKeysWith: { $1 }) {
            let file = try victim.write(text, to: name)
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
        }
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: victim.url.path)
        return victim
    }

    func link(_ link: URL, to target: URL) throws {
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
    }

    func linkTarget(_ link: URL) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)
    }

    func removeCity(_ line: String, from site: TemporaryFolder) throws {
        let config = site.url.appendingPathComponent("isobar.yml")
        let yaml = try String(contentsOf: config, encoding: .utf8)
        #expect(yaml.contains(line + "\n"))
        try Data(yaml.replacingOccurrences(of: line + "\n", with: "").utf8).write(to: config)
    }

    static let environment = ["SOURCE_DATE_EPOCH": "1795348800"]

    /// A copy of the demo site, built once.
    func builtDemoSite() async throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite()
        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        return site
    }
    static let otherCities = ["paris-fr", "rome-it", "new-york-us", "berlin-de", "lod-il", "tokyo-jp", "sao-paulo-br"]

    // MARK: The output folder

    @Test func aCityFolderThatIsALinkFailsThatCityAndNothingIsWrittenThroughIt() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let victim = try victimFolder(["index.html": "the victim's page", "forecast.json": "{}", "notes.txt": "mine"])
        defer { victim.cleanup() }
        let cityFolder = site.url.appendingPathComponent("_site/london-gb")
        try link(cityFolder, to: victim.url)
        let before = snapshot(victim.url)

        let run = try await IsobarRun.launch(["build"], in: site.url, environment: Self.environment)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("London: \(cityFolder.path): error: is a symbolic link to \(victim.url.path), and Isobar writes nothing through a link it did not make"), "\(run.stderr)")
        #expect(run.stderr.contains("hint: remove the link"))
        #expect(run.stderr.contains("failed: London (publish)"))
        #expect(snapshot(victim.url) == before)
        #expect(linkTarget(cityFolder) == victim.url.path)
        // Every other city is published.
        let output = site.url.appendingPathComponent("_site")
        for slug in Self.otherCities {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("\(slug)/index.html").path), "\(slug)")
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("\(slug)/forecast.json").path), "\(slug)")
        }
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path))
    }

    @Test func pruningLeavesALinkedCityFolderAndWhatItLeadsToAlone() async throws {
        let site = try await builtDemoSite()
        defer { site.cleanup() }
        let victim = try TemporaryFolder()
        defer { victim.cleanup() }
        // London's published folder is moved elsewhere and linked back in its place.
        let output = site.url.appendingPathComponent("_site")
        let cityFolder = output.appendingPathComponent("london-gb")
        let moved = victim.url.appendingPathComponent("london")
        try FileManager.default.moveItem(at: cityFolder, to: moved)
        try link(cityFolder, to: moved)
        _ = try victim.write("not Isobar's", to: "london/.index.html\(AtomicFile.temporaryMarker)12345")
        let before = snapshot(victim.url)

        // London and Rome leave the config: Rome's real folder is pruned, London's link is not.
        try removeCity("  - { name: London, country: GB }", from: site)
        try removeCity("  - { name: Rome, country: IT }", from: site)
        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains(
            "warning: \(cityFolder.path) is a symbolic link to \(moved.path); not pruned: london-gb/card.png, london-gb/forecast.json, london-gb/index.html, london-gb/now.svg, london-gb/widget.html"),
                "\(run.stderr)")
        #expect(run.stderr.contains("hint: Isobar deletes nothing through a link it did not make"))
        #expect(snapshot(victim.url) == before)
        #expect(linkTarget(cityFolder) == moved.path)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("rome-it").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("paris-fr/index.html").path))
    }

    @Test func aLinkedLockFileIsRefusedAndItsTargetIsUntouched() async throws {
        let site = try await builtDemoSite()
        defer { site.cleanup() }
        let victim = try victimFolder(["lock": "precious\n"])
        defer { victim.cleanup() }
        let output = site.url.appendingPathComponent("_site")
        let lock = output.appendingPathComponent(OutputLock.fileName)
        // Something to rewrite, so a run that went on would show in the site.
        try FileManager.default.removeItem(at: output.appendingPathComponent("paris-fr/index.html"))
        // Once to a file that exists (it would be truncated), once dangling (it would be made).
        for target in [victim.url.appendingPathComponent("lock"), victim.url.appendingPathComponent("made-by-isobar")] {
            try FileManager.default.removeItem(at: lock)
            try link(lock, to: target)
            let before = snapshot(victim.url), published = snapshot(output)
            let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Self.environment)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("\(lock.path): error: is a symbolic link to \(target.path), and Isobar writes nothing through a link it did not make"),
                    "\(run.stderr)")
            #expect(snapshot(victim.url) == before)
            #expect(snapshot(output) == published)
            #expect(linkTarget(lock) == target.path)
        }
    }

    @Test func aLinkedPageInACityFolderIsNotWrittenThrough() async throws {
        let site = try await builtDemoSite()
        defer { site.cleanup() }
        let victim = try victimFolder(["page.html": "the victim's page"])
        defer { victim.cleanup() }
        let output = site.url.appendingPathComponent("_site")
        let page = output.appendingPathComponent("paris-fr/index.html")
        try FileManager.default.removeItem(at: page)
        try link(page, to: victim.url.appendingPathComponent("page.html"))
        let before = snapshot(victim.url), city = snapshot(output.appendingPathComponent("paris-fr"))

        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Self.environment)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("Paris: \(page.path): error: is a symbolic link to \(victim.url.path)/page.html"), "\(run.stderr)")
        #expect(run.stderr.contains("failed: Paris (publish)"))
        #expect(snapshot(victim.url) == before)
        // Not replaced either, and the city's other file is left as it was.
        #expect(snapshot(output.appendingPathComponent("paris-fr")) == city)
        #expect(linkTarget(page) == victim.url.path + "/page.html")
    }

    /// The output folder itself may be a link: that is the user's choice, made in the config.
    @Test func theOutputFolderItselfMayBeALink() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let webRoot = try TemporaryFolder()
        defer { webRoot.cleanup() }
        try link(site.url.appendingPathComponent("_site"), to: webRoot.url)
        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: webRoot.url.appendingPathComponent("london-gb/index.html").path))
    }

    /// A link planted under the temporary name a write goes through first.
    @Test func aLinkUnderTheTemporaryNameIsNotWrittenThrough() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let victim = try victimFolder(["secret": "precious"])
        defer { victim.cleanup() }
        try link(folder.url.appendingPathComponent(".page.html\(AtomicFile.temporaryMarker)\(getpid())"), to: victim.url.appendingPathComponent("secret"))
        let before = snapshot(victim.url)
        let writer = try SiteWriter(output: folder.url)
        #expect {
            try writer.write("new page", to: "page.html")
        } throws: { error in
            (error as? IsobarError)?.message.hasPrefix("is a symbolic link to \(victim.url.path)/secret") == true
        }
        #expect(snapshot(victim.url) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("page.html").path))
    }

    /// A group of files (a city's) is checked whole before any of it is written: a link in
    /// the place of its last file leaves the first as it was, and no folder is made for
    /// the one in between.
    @Test func aLinkInAGroupLeavesTheWholeGroupAsItWas() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let victim = try victimFolder(["secret": "precious"])
        defer { victim.cleanup() }
        let writer = try SiteWriter(output: folder.url)
        try writer.write("the old page", to: "city/index.html")
        try link(folder.url.appendingPathComponent("city/forecast.json"), to: victim.url.appendingPathComponent("secret"))
        let before = snapshot(folder.url), victimBefore = snapshot(victim.url)
        #expect {
            try writer.write([
                ("city/index.html", Array("the new page".utf8)), ("de/city/index.html", Array("die neue Seite".utf8)),
                ("city/forecast.json", Data("{}".utf8)),
            ])
        } throws: { error in
            (error as? IsobarError)?.message.hasPrefix("is a symbolic link to \(victim.url.path)/secret") == true
        }
        #expect(snapshot(folder.url) == before)
        #expect(snapshot(victim.url) == victimBefore)

        // Without the link the group is written, its new folder made.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("city/forecast.json"))
        let stamps = try writer.write([
            ("city/index.html", Array("the new page".utf8)), ("de/city/index.html", Array("die neue Seite".utf8)),
            ("city/forecast.json", Data("{}".utf8)),
        ])
        #expect(stamps.keys.sorted() == ["city/forecast.json", "city/index.html", "de/city/index.html"])
        #expect(try String(contentsOf: folder.url.appendingPathComponent("de/city/index.html"), encoding: .utf8) == "die neue Seite")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("city/index.html"), encoding: .utf8) == "the new page")
        #expect(stamps["city/forecast.json"]?.size == 2)
    }

    // MARK: The cache

    @Test func aLinkedCacheFolderOrFileIsNotWrittenThrough() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let site = try TemporaryFolder.liveSite(server, timeout: "15s", cities: [
            "{ name: Rome, country: IT, lat: 41.8933, lon: 12.4829 }",
            "{ name: Paris, country: FR, lat: 48.8589, lon: 2.32 }",
            "{ name: Berlin, country: DE, lat: 52.517, lon: 13.3889 }",
        ])
        defer { site.cleanup() }
        let victim = try victimFolder(["notes.txt": "mine", "precious.json": "{\"mine\": true}"])
        defer { victim.cleanup() }
        let cache = site.url.appendingPathComponent(".isobar/cache")
        // Rome's whole folder is a link; Paris's folder is real but its One Call file is a link.
        try link(cache.appendingPathComponent("rome-it"), to: victim.url)
        try link(cache.appendingPathComponent("paris-fr/onecall.json"), to: victim.url.appendingPathComponent("precious.json"))
        let before = snapshot(victim.url)

        let run = try await IsobarRun.launch(["build"], in: site.url, environment: ["OPENWEATHER_API_KEY": OpenWeatherStandIn.key])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("\(cache.path)/rome-it: error: is a symbolic link to \(victim.url.path), and Isobar writes nothing"), "\(run.stderr)")
        #expect(run.stderr.contains("\(cache.path)/paris-fr/onecall.json: error: is a symbolic link to \(victim.url.path)/precious.json"), "\(run.stderr)")
        #expect(run.stderr.contains("failed: Rome (fetch)") && run.stderr.contains("failed: Paris (fetch)"))
        #expect(snapshot(victim.url) == before)
        #expect(linkTarget(cache.appendingPathComponent("rome-it")) == victim.url.path)
        #expect(linkTarget(cache.appendingPathComponent("paris-fr/onecall.json")) == victim.url.path + "/precious.json")
        // Berlin's responses are cached as usual, and its page is published.
        var status = stat()
        #expect(lstat(cache.appendingPathComponent("berlin-de/onecall.json").path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/berlin-de/index.html").path))
    }

    // MARK: Public/

    @Test func aLinkInPublicLeadingOutOfItIsNotPublished() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let outside = try victimFolder(["secret": "root:$6$very-secret-hash:19000::::::\n", "folder/inner.txt": "inner-secret-text"])
        defer { outside.cleanup() }
        let publicFolder = site.url.appendingPathComponent("Public")
        let secret = outside.url.appendingPathComponent("secret")
        try link(publicFolder.appendingPathComponent("places/x.png"), to: secret)
        _ = try site.write("a real picture", to: "Public/places/real.png")
        _ = try site.write("hidden inside", to: "Public/.hidden")
        try link(publicFolder.appendingPathComponent("leak.txt"), to: publicFolder.appendingPathComponent(".hidden"))
        try link(publicFolder.appendingPathComponent("more"), to: outside.url.appendingPathComponent("folder"))
        try link(publicFolder.appendingPathComponent("nowhere.png"), to: outside.url.appendingPathComponent("gone.png"))
        // Within Public/, a link to a file that is published anyway is followed.
        try link(publicFolder.appendingPathComponent("icons/alias.svg"), to: publicFolder.appendingPathComponent("icons/01d.svg"))
        // London's first place shows the linked image, Paris's the real one.
        let placesFile = site.url.appendingPathComponent("Data/places.json")
        var places = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: placesFile)) as? [String: [[String: Any]]])
        places["london-gb"]![0]["image"] = "x.png"
        places["paris-fr"]![0]["image"] = "real.png"
        try JSONSerialization.data(withJSONObject: places).write(to: placesFile)

        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let x = publicFolder.appendingPathComponent("places/x.png").path
        #expect(run.stderr.contains("warning: \(x) is a symbolic link to \(secret.path): not published, since it leads out of the public folder"),
                "\(run.stderr)")
        #expect(run.stderr.contains("\(publicFolder.path)/leak.txt is a symbolic link to \(publicFolder.path)/.hidden: not published, since it leads to a hidden file"))
        #expect(run.stderr.contains("\(publicFolder.path)/more is a symbolic link to \(outside.url.path)/folder: not published, since it leads out of the public folder"))
        #expect(run.stderr.contains("\(publicFolder.path)/nowhere.png is a symbolic link to \(outside.url.path)/gone.png: not published, since it leads to nothing"))
        let output = site.url.appendingPathComponent("_site")
        let assets = output.appendingPathComponent("assets")
        for name in ["places/x.png", "leak.txt", "more", "nowhere.png"] {
            #expect(!FileManager.default.fileExists(atPath: assets.appendingPathComponent(name).path), "\(name)")
        }
        #expect(FileManager.default.contents(atPath: assets.appendingPathComponent("places/real.png").path) == Data("a real picture".utf8))
        #expect(FileManager.default.contents(atPath: assets.appendingPathComponent("icons/alias.svg").path)
                == FileManager.default.contents(atPath: publicFolder.appendingPathComponent("icons/01d.svg").path))
        // No published file holds the secrets, and no page links to the skipped image.
        for (path, entry) in snapshot(output) {
            let text = entry.bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(!text.contains("very-secret-hash") && !text.contains("inner-secret-text"), "\(path)")
        }
        let london = try String(contentsOf: output.appendingPathComponent("london-gb/index.html"), encoding: .utf8)
        let paris = try String(contentsOf: output.appendingPathComponent("paris-fr/index.html"), encoding: .utf8)
        #expect(!london.contains("assets/places/x.png"))
        #expect(paris.contains("assets/places/real.png"))
    }
}
