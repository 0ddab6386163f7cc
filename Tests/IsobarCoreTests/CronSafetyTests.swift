import Foundation
import Testing
@testable import IsobarCore

/// Issue 5: atomic publishing, one run at a time, nothing lost on a bad day, pruning,
/// and the report — all through the real binary.
@Suite(.serialized) struct CronSafetyTests {
    /// Every regular file below `folder`, by relative path.
    func files(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let manager = FileManager.default
        for case let relative as String in manager.enumerator(atPath: folder.path) ?? FileManager.DirectoryEnumerator() {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(relative)
            if manager.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                result[relative] = manager.contents(atPath: url.path)
            }
        }
        return result
    }

    /// A demo site with `count` snapshot cities (copies of London), big enough that a
    /// build takes a while to kill in the middle of.
    func bigSite(count: Int) throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        var cities = ""
        for index in 0..<count {
            let slug = String(format: "city-%03d", index)
            try FileManager.default.copyItem(
                at: TestPaths.repository.appendingPathComponent("Samples/london-gb"),
                to: site.url.appendingPathComponent("Samples/\(slug)"))
            cities += "  - { name: City \(index), country: GB, slug: \(slug) }\n"
        }
        _ = try site.write("base_url: https://w.example.org/\nprovider: snapshot\nlanguage: en\ncities:\n" + cities, to: "isobar.yml")
        return site
    }

    @Test func aKilledRunLeavesOnlyCompleteFiles() async throws {
        let site = try bigSite(count: 80)
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        let english = try String(contentsOf: config, encoding: .utf8)
        let german = english.replacingOccurrences(of: "language: en", with: "language: de")
        // Two complete versions of every file: the published one, and the next.
        #expect(try await IsobarRun.launch(["build", "--quiet", "--output", "old"], in: site.url).status == 0)
        try Data(german.utf8).write(to: config)
        #expect(try await IsobarRun.launch(["build", "--quiet", "--output", "new"], in: site.url).status == 0)
        let old = files(site.url.appendingPathComponent("old")), new = files(site.url.appendingPathComponent("new"))

        // Kill moments: early (while fetching and rendering), and at several points after
        // the first new file appears, while the site is being replaced file by file.
        let firstWritten = site.url.appendingPathComponent("_site/city-000/index.html")
        var sawPartialSite = false
        for (early, delay) in [(true, 0.2), (false, 0.0), (false, 0.002), (false, 0.005), (false, 0.01), (false, 0.02), (false, 0.04), (false, 0.08)] {
            let output = site.url.appendingPathComponent("_site")
            try? FileManager.default.removeItem(at: output)
            try FileManager.default.copyItem(at: site.url.appendingPathComponent("old"), to: output)
            let process = try Child(IsobarRun.binary.path, ["build", "--quiet"], in: site.url, stdout: .inherit)
            if !early {
                let deadline = Date().addingTimeInterval(60)
                while process.isRunning, Date() < deadline, (try? Data(contentsOf: firstWritten)) == old["city-000/index.html"] {
                    try await Task.sleep(for: .microseconds(200))
                }
            }
            try await Task.sleep(for: .seconds(delay))
            process.signal(SIGKILL)
            process.waitForExit()
            var olds = 0, news = 0
            for (path, data) in files(output) {
                let name = (path as NSString).lastPathComponent
                if name.contains(AtomicFile.temporaryMarker) || name == OutputLock.fileName || name == Manifest.fileName { continue }
                #expect(data == old[path] || data == new[path], "after \(delay) s: \(path) is neither the old nor the new version")
                if data != old[path] { news += 1 } else if data != new[path] { olds += 1 }
            }
            if olds > 0 && news > 0 { sawPartialSite = true }
            // The next run finishes the job and clears the leftovers.
            let next = try await IsobarRun.launch(["build", "--quiet"], in: site.url)
            #expect(next.status == 0, "\(next.stderr)")
            let after = files(output)
            #expect(!after.keys.contains { $0.contains(AtomicFile.temporaryMarker) }, "leftovers after \(delay) s")
            for (path, data) in new where !path.hasPrefix(".isobar") { #expect(after[path] == data, "\(path) after the next run") }
        }
        // At least one kill landed while files were being replaced, or the test proved nothing.
        #expect(sawPartialSite)
    }

    @Test func aSecondRunOnTheSameOutputExitsAtOnce() async throws {
        let server = try await OpenWeatherStandIn(answerWithin: 600)
        defer { Task { await server.stop() } }
        // The first run's request is answered only when the test says so: until then it
        // holds the output, however slow the machine (its timeout, and the stand-in's, are
        // longer than any wait). The runs beside it start at once, not queued behind other
        // suites' runs, which once took longer than the stand-in's minute: the first run
        // then failed its city and ended, and the second built.
        await server.inject("/data/3.0/onecall", [.hold])
        defer { Task { await server.release() } }
        let site = try TemporaryFolder.liveSite(server, timeout: "10m", cities: ["{ name: Paris, country: FR, lat: 48.8589, lon: 2.32 }"])
        defer { site.cleanup() }
        let environment = ["OPENWEATHER_API_KEY": OpenWeatherStandIn.key]
        async let first = IsobarRun.launch(["build"], in: site.url, environment: environment, queued: false)
        // The first run holds the lock once its request reaches the server.
        #expect(try await server.waitForRequests(to: "/data/3.0/onecall"))
        let second = try await IsobarRun.launch(["build"], in: site.url, environment: environment, queued: false)
        // Skipped, not failed: its own exit code and one line naming the run that holds the output.
        #expect(second.status == 75)
        #expect(second.stderr.split(separator: "\n").count == 1, "\(second.stderr)")
        #expect(second.stderr.contains("another isobar run (pid ") && second.stderr.contains("this run is skipped"), "\(second.stderr)")
        #expect(!second.stderr.contains("error"), "\(second.stderr)")
        // At once, not after the first run: that one cannot end before the release below.
        // With --quiet, cron gets nothing to mail; --wait=1s gives up after a second.
        let quiet = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: environment, queued: false)
        #expect(quiet.status == 75 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let waitedAt = Date()
        let impatient = try await IsobarRun.launch(["build", "--wait=1s"], in: site.url, environment: environment, queued: false)
        #expect(impatient.status == 75 && impatient.stderr.contains("after 1 s of waiting"), "\(impatient.stderr)")
        #expect(Date().timeIntervalSince(waitedAt) >= 1)
        // --wait alone waits for the first run to end (released a moment after it started),
        // then builds.
        async let patient = IsobarRun.launch(["build", "--wait"], in: site.url, environment: environment, queued: false)
        try await Task.sleep(for: .seconds(1))
        await server.release()
        let waited = try await patient
        #expect(waited.status == 0, "\(waited.stderr)")
        let winner = try await first
        #expect(winner.status == 0, "\(winner.stderr)")
        // A lock left by a finished (or killed) run does not block the next one.
        #expect(try await IsobarRun.launch(["build"], in: site.url, environment: environment).status == 0)
    }

    @Test func aBadDayKeepsPagesAndShowsStaleData() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        defer { site.cleanup() }
        func configure(staleAfter: String) throws {
            _ = try site.write("""
                base_url: https://w.example.org/
                provider: openweather
                alerts: [openweather]
                openweather: { base_url: "\(server.baseURL)", timeout: 15s }
                cache: { max_age: 1s }
                stale_after: \(staleAfter)
                cities:
                  - { name: Rome, country: IT, lat: 41.8933, lon: 12.4829 }
                """, to: "isobar.yml")
        }
        let environment = ["OPENWEATHER_API_KEY": OpenWeatherStandIn.key]
        try configure(staleAfter: "6h")
        #expect(try await IsobarRun.launch(["build"], in: site.url, environment: environment).status == 0)
        let romePage = site.url.appendingPathComponent("_site/rome-it/index.html")
        #expect(!(try String(contentsOf: romePage, encoding: .utf8)).contains("stale-note"))

        // The cache has expired and One Call is down: the page is rebuilt from the cache, marked.
        await server.inject("/data/3.0/onecall", [.status(503)], sticky: true)
        let report = site.url.appendingPathComponent("report.json")
        let stale = try await IsobarRun.launch(["build", "--report", report.path], in: site.url,
                                               environment: environment.merging(IsobarRun.clock(after: 2)) { $1 })
        #expect(stale.status == 2, "\(stale.stderr)")
        #expect(stale.stderr.contains("service unavailable after 3 attempts"))
        #expect(stale.stderr.contains("using cached data"), "\(stale.stderr)")
        #expect(stale.stderr.contains("stale: Rome (fetch)"))
        let page = try String(contentsOf: romePage, encoding: .utf8)
        #expect(page.contains("<p class=\"stale-note\" role=\"status\">Data from "), "stale note")
        let index = try String(contentsOf: site.url.appendingPathComponent("_site/index.html"), encoding: .utf8)
        #expect(index.contains("href=\"rome-it/index.html\""))
        #expect(index.contains("card-stale"))
        let reportJSON = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let rome = try #require((reportJSON["cities"] as? [[String: Any]])?.first)
        #expect(rome["status"] as? String == "stale")
        #expect(rome["data_time"] as? String != nil)
        let stalePage = try Data(contentsOf: romePage)

        // Beyond stale_after there is nothing to rebuild from: the page stays as published.
        try configure(staleAfter: "1s")
        let failed = try await IsobarRun.launch(["build"], in: site.url, environment: environment.merging(IsobarRun.clock(after: 4)) { $1 })
        #expect(failed.status == 1, "\(failed.stderr)")  // the only city failed: nothing is written
        #expect(try Data(contentsOf: romePage) == stalePage)
    }

    /// The lock file tells the next run whether to look for a killed run's temporary files.
    @Test func onlyARunThatDidNotEndLeavesTheSearchForLeftoversToTheNext() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let lock = site.url.appendingPathComponent("_site/.isobar.lock")
        #expect(try await IsobarRun.launch(["build", "--quiet"], in: site.url).status == 0)
        #expect(try String(contentsOf: lock, encoding: .utf8) == "clean\n")
        // As a killed run leaves it: the lock says `running`, a temporary file lies about.
        let leftover = try site.write("half a page", to: "_site/paris-fr/.index.html\(AtomicFile.temporaryMarker)99999")
        try Data("running\n".utf8).write(to: lock)
        #expect(try await IsobarRun.launch(["build", "--quiet"], in: site.url).status == 0)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(try String(contentsOf: lock, encoding: .utf8) == "clean\n")
        // A failed run (no city can be built) still ends, and says so.
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("Samples"))
        #expect(try await IsobarRun.launch(["build", "--quiet"], in: site.url).status != 0)
        #expect(try String(contentsOf: lock, encoding: .utf8) == "clean\n")
    }

    @Test func removedCitiesArePrunedButForeignFilesStay() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        #expect(try await IsobarRun.launch(["build", "--quiet"], in: site.url).status == 0)
        let output = site.url.appendingPathComponent("_site")
        _ = try site.write("mine", to: "_site/custom.html")
        _ = try site.write("mine too", to: "_site/rome-it/notes.txt")
        let config = site.url.appendingPathComponent("isobar.yml")
        let yaml = try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "  - { name: Rome, country: IT }\n", with: "")
        try Data(yaml.utf8).write(to: config)
        let report = site.url.appendingPathComponent("report.json")
        let run = try await IsobarRun.launch(["build", "--report", report.path], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        // Rome's page, forecast.json, share card, widget and badge.
        #expect(run.stderr.contains("5 removed"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("rome-it/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("rome-it/forecast.json").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("rome-it/notes.txt").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("custom.html").path))
        #expect(!(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)).contains("rome-it"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect((json["files"] as? [String: Int])?["removed"] == 5)
        #expect(json["status"] as? String == "ok")
        let stages = try #require(json["stage_seconds"] as? [String: Double])
        for step in ["config", "fetch", "normalize", "present", "render", "publish"] { #expect(stages[step] != nil, "\(step)") }
    }

    @Test func aFailingCityKeepsItsPageAndStaysOnTheIndex() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        #expect(try await IsobarRun.launch(["build", "--quiet"], in: site.url).status == 0)
        let page = site.url.appendingPathComponent("_site/tokyo-jp/index.html")
        let before = try Data(contentsOf: page)
        let modified = try FileManager.default.attributesOfItem(atPath: page.path)[.modificationDate] as? Date
        try Data("{\"broken\": true}".utf8).write(to: site.url.appendingPathComponent("Samples/tokyo-jp/onecall.json"))
        let report = site.url.appendingPathComponent("r.json")
        let run = try await IsobarRun.launch(["build", "--report", report.path], in: site.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("failed: Tokyo (normalize)"), "\(run.stderr)")
        #expect(try Data(contentsOf: page) == before)
        #expect((try FileManager.default.attributesOfItem(atPath: page.path)[.modificationDate] as? Date) == modified)
        let index = try String(contentsOf: site.url.appendingPathComponent("_site/index.html"), encoding: .utf8)
        #expect(index.contains("<a href=\"tokyo-jp/index.html\">Tokyo (JP)</a>"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(json["status"] as? String == "partial")
        let tokyo = try #require((json["cities"] as? [[String: Any]])?.first { $0["slug"] as? String == "tokyo-jp" })
        #expect(tokyo["status"] as? String == "failed")
        #expect((tokyo["reason"] as? String)?.contains("lat is missing") == true)
    }
}
