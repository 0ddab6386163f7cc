import Foundation
import Testing
@testable import IsobarCore

/// `isobar history import`, `history.start_from` and `isobar history export`, with the
/// real binary on copies of the demo and its recorded past (`Samples/past`).
@Suite struct HistoryImportTests {
    static let slugs = ["berlin-de", "lod-il", "london-gb", "new-york-us", "paris-fr", "rome-it", "sao-paulo-br", "tokyo-jp"]

    /// The first `count` recorded times of the demo's past, copied to `name` in the site.
    static func pastFolders(_ count: Int, into name: String, in site: TemporaryFolder) throws -> [URL] {
        let past = TestPaths.repository.appendingPathComponent("Samples/past")
        let times = try FileManager.default.contentsOfDirectory(atPath: past.path).sorted().prefix(count)
        return try times.map { time in
            let target = site.url.appendingPathComponent("\(name)/\(time)")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: past.appendingPathComponent(time), to: target)
            return target
        }
    }

    /// Two recorded times and a folder of a city the config does not have: 16
    /// observations, the stranger named once; again, nothing new. A single cache-layout
    /// folder (the snapshots themselves) is read as one recorded time.
    @Test func importsCountsAndSkipsWhatIsThere() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let times = try Self.pastFolders(2, into: "recorded", in: site)
        for time in times {
            let stranger = time.appendingPathComponent("atlantis-xx")
            try FileManager.default.createDirectory(at: stranger, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: time.appendingPathComponent("london-gb/open-meteo-forecast.json"),
                                             to: stranger.appendingPathComponent("open-meteo-forecast.json"))
        }
        let first = try await IsobarRun.launch(["history", "import", "recorded"], in: site.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "imported 16 observations for 8 cities from recorded\n", "\(first.stdout)")
        #expect(first.stderr == "recorded: warning: skipped folders of cities not in the config: atlantis-xx\n", "\(first.stderr)")

        let again = try await IsobarRun.launch(["history", "import", "recorded", "--config", "isobar.yml"], in: site.url)
        #expect(again.status == 0)
        #expect(again.stdout == "imported 0 observations for 8 cities from recorded (16 already recorded)\n", "\(again.stdout)")

        let current = try await IsobarRun.launch(["history", "import", "Samples"], in: site.url)
        #expect(current.status == 0, "\(current.stderr)")
        #expect(current.stdout == "imported 8 observations for 8 cities from Samples\n", "\(current.stdout)")
        #expect(current.stderr.contains("skipped folders of cities not in the config: bergen-no, boston-us, denver-us, lisbon-pt, oslo-no"), "\(current.stderr)")

        let stats = try await IsobarRun.launch(["history", "stats"], in: site.url)
        #expect(stats.stdout.contains("\n8 cities, 24 observations, "), "\(stats.stdout)")
        // The import and a build agree: the build finds its data times recorded already.
        let build = try await IsobarRun.launch(["build"], in: site.url)
        #expect(build.status == 0 && build.stderr.contains("; 0 recorded in the history"), "\(build.stderr)")
    }

    /// A broken body and half of the free pair are named with their paths and skipped;
    /// the rest is imported and the run exits 2. A folder that is not there is an error.
    @Test func aBadResponseIsNamedAndTheRestImported() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let times = try Self.pastFolders(2, into: "recorded", in: site)
        let broken = times[1].appendingPathComponent("rome-it/open-meteo-forecast.json")
        try Data(#"{"latitude": 41.9, "current": {"time": "#.utf8).write(to: broken)
        let half = times[0].deletingLastPathComponent().appendingPathComponent("2000-01-01T0000Z/lod-il")
        try FileManager.default.createDirectory(at: half, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: site.url.appendingPathComponent("Samples/lod-il/weather.json"), to: half.appendingPathComponent("weather.json"))

        let run = try await IsobarRun.launch(["history", "import", "recorded"], in: site.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("\(broken.path): warning: unexpected response"), "\(run.stderr)")
        #expect(run.stderr.contains("\(half.appendingPathComponent("forecast.json").path): warning: missing: weather.json is there but forecast.json is not"),
                "\(run.stderr)")
        #expect(run.stdout == "imported 15 observations for 8 cities from recorded (2 skipped)\n", "\(run.stdout)")

        let missing = try await IsobarRun.launch(["history", "import", "nowhere"], in: site.url)
        #expect(missing.status == 1 && missing.stderr.contains("nowhere: error: no such folder"), "\(missing.stderr)")
        // A history that cannot be used: the existing message, exit 1.
        try Data("this is not a database, just some text long enough to be read as a header".utf8)
            .write(to: site.url.appendingPathComponent(".isobar/history.sqlite"))
        let corrupt = try await IsobarRun.launch(["history", "import", "recorded"], in: site.url)
        #expect(corrupt.status == 1 && corrupt.stderr.contains("history.sqlite: error: the history database is corrupt"), "\(corrupt.stderr)")
    }

    /// The demo as a fresh clone has it: its first build imports the recorded past (80
    /// times per city) and says so once; the next build does not import again.
    @Test func startFromGivesAFreshHistoryThePast() async throws {
        let site = try TemporaryFolder.demoSite(withPast: true)
        defer { site.cleanup() }
        let first = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.components(separatedBy: "history: imported 640 observations from Samples/past\n").count == 2, "\(first.stderr)")
        #expect(first.stderr.contains("; 8 recorded in the history"), "\(first.stderr)")
        let stats = try await IsobarRun.launch(["history", "stats"], in: site.url)
        #expect(stats.stdout.contains("\n8 cities, 648 observations, "), "\(stats.stdout)")
        for slug in Self.slugs {
            #expect(stats.stdout.contains("\n\(slug.padding(toLength: 12, withPad: " ", startingAt: 0))            81 "), "\(slug): \(stats.stdout)")
        }
        let second = try await IsobarRun.launch(["build", "--output", "_other"], in: site.url)
        #expect(second.status == 0 && !second.stderr.contains("imported"), "\(second.stderr)")

        // Yesterday at this time is recorded: the sample's data time less 24 hours.
        let csv = try await IsobarRun.launch(["history", "export", "--city", "london-gb"], in: site.url)
        #expect(csv.stdout.contains("\r\n2026-11-21T11:50:00Z,"), "\(csv.stdout.prefix(400))")
    }

    @Test func startFromMustBeAFolderAndNotACitysSnapshots() async throws {
        let site = try TemporaryFolder.demoSite(withPast: true)
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try text.replacingOccurrences(of: "start_from: Samples/past", with: "start_from: Samples/gone").write(to: config, atomically: true, encoding: .utf8)
        let missing = try await IsobarRun.launch(["build"], in: site.url)
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("isobar.yml:15:24: error: history.start_from: \"Samples/gone\" is not a folder"), "\(missing.stderr)")

        try (text + "  - { name: Past, country: GB, lat: 51.5, lon: 0, slug: past }\n").write(to: config, atomically: true, encoding: .utf8)
        let clash = try await IsobarRun.launch(["check"], in: site.url)
        #expect(clash.status == 1 && clash.stderr.contains("history.start_from: \(site.url.path)/Samples/past is the snapshot folder of Past (slug past)"),
                "\(clash.stderr)")
    }

    /// CSV (RFC 4180) and JSON: the header and units, a row per data time in time order,
    /// empty (CSV) or absent (JSON) where nothing was recorded, text fields escaped.
    @Test func exportsCSVAndJSON() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        _ = try Self.pastFolders(24, into: "recorded", in: site)
        let imported = try await IsobarRun.launch(["history", "import", "recorded"], in: site.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        // An observation whose source needs quoting: commas, quotes, a line break.
        let store = try SQLiteHistory(file: site.url.appendingPathComponent(".isobar/history.sqlite"))
        var odd = HistoryEntry(city: "odd-city", forecast: try Fixtures.forecast())
        odd.source = "a \"quoted\", source\nwith a line break"
        #expect(try store.record([odd]) == 1)

        let csv = try await IsobarRun.launch(["history", "export", "--city", "tokyo-jp", "--format", "csv"], in: site.url)
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.components(separatedBy: "\r\n")
        #expect(lines.first == "time,temperature,feels_like,humidity,dew_point,pressure,surface_pressure,wind_speed,wind_gust,wind_direction,cloud_cover,visibility,uv_index,rain_1h,snow_1h,condition,source")
        #expect(lines.count == 1 + 24 + 1 && lines.last == "", "a header, 24 rows, each ended by CRLF")
        let times = lines.dropFirst().dropLast().map { String($0.prefix(while: { $0 != "," })) }
        #expect(times == times.sorted() && Set(times).count == 24 && times.first == "2026-11-12T11:56:00Z", "\(times)")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 17 && $0.hasSuffix(",open-meteo") })
        #expect(lines[1].contains(",,"), "a value not recorded (rain in a dry hour) is an empty field: \(lines[1])")

        let oddCSV = try await IsobarRun.launch(["history", "export", "--city", "odd-city"], in: site.url)
        #expect(oddCSV.stdout.hasSuffix(",\"a \"\"quoted\"\", source\nwith a line break\"\r\n"), "\(oddCSV.stdout)")

        let json = try await IsobarRun.launch(["history", "export", "--city", "tokyo-jp", "--format", "json"], in: site.url)
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["city"] as? String == "tokyo-jp")
        let units = try #require(document["units"] as? [String: String])
        #expect(units["temperature"] == "°C" && units["wind_speed"] == "m/s" && units["pressure"] == "hPa" && units["rain_1h"] == "mm")
        let observations = try #require(document["observations"] as? [[String: Any]])
        #expect(observations.count == 24)
        #expect(observations.compactMap { $0["time"] as? String } == times)
        #expect(observations.first?["source"] as? String == "open-meteo" && observations.first?["temperature"] is Double)
        // The CSV's numbers are the JSON's.
        let csvTemperature = lines[1].split(separator: ",", omittingEmptySubsequences: false)[1]
        #expect(Double(csvTemperature) == observations.first?["temperature"] as? Double)

        let oddJSON = try await IsobarRun.launch(["history", "export", "--city", "odd-city", "--format", "json"], in: site.url)
        let oddDocument = try #require(try JSONSerialization.jsonObject(with: Data(oddJSON.stdout.utf8)) as? [String: Any])
        #expect((oddDocument["observations"] as? [[String: Any]])?.first?["source"] as? String == odd.source)

        let unknown = try await IsobarRun.launch(["history", "export", "--city", "atlantis-xx"], in: site.url)
        #expect(unknown.status == 1 && unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("error: no observations of \"atlantis-xx\" in the history")
            && unknown.stderr.contains("`isobar history stats` lists the cities it holds"), "\(unknown.stderr)")
        let format = try await IsobarRun.launch(["history", "export", "--city", "tokyo-jp", "--format", "xml"], in: site.url)
        #expect(format.status == 64, "\(format.stderr)")
    }
}
