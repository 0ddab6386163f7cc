import Foundation
import Testing
@testable import IsobarCore

/// `normals: archive`: the real binary against Open-Meteo's forecast stand-in and the
/// historical weather API's (`Tests/servers/archive_server.py`). Each city's archive is
/// asked once, counted by Open-Meteo's call budget, kept for good (the cache, and the
/// history's `normal` table), and never asked again.
@Suite(.serialized) struct NormalsFetchTests {
    static let oslo = "  - { name: Oslo, country: \"NO\", lat: 59.9127, lon: 10.7461, timezone: Europe/Oslo }"

    static func withSite(archiveMode: String = "ok", normals: String = "archive",
                         _ body: (TemporaryFolder, ArchiveStandIn, OpenMeteoStandIn.Log) async throws -> Void) async throws {
        let archive = try ArchiveStandIn(mode: archiveMode)
        defer { archive.stop() }
        let log = OpenMeteoStandIn.Log()
        let (openMeteo, task, port) = try await OpenMeteoStandIn.serve(log)
        defer { task.cancel(); Task { await openMeteo.stop() } }
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        defer { site.cleanup() }
        let base = "http://127.0.0.1:\(port)"
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: open-meteo
            open_meteo: { base_url: "\(base)", air_quality_url: "\(base)", geocoding_url: "\(base)", archive_url: "\(archive.baseURL)", daily_limit: 50 }
            normals: \(normals)
            alerts: off
            cache: { max_age: 0s }
            cities:
            \(oslo)
            """, to: "isobar.yml")
        try await body(site, archive, log)
    }

    static func page(_ site: TemporaryFolder) throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("_site/oslo-no/index.html"), encoding: .utf8)
    }

    static func ledgerCalls(_ site: TemporaryFolder) throws -> Int {
        let ledger = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent(".isobar/cache/budget.json"))) as! [String: Any]
        let providers = ledger["providers"] as! [String: [String: Any]]
        return providers["open-meteo"]!["day_calls"] as! Int
    }

    @Test func eachCitysArchiveIsAskedOnceCountedAndKeptForGood() async throws {
        try await Self.withSite { site, archive, log in
            let first = try await IsobarRun.launch(["build"], in: site.url)
            #expect(first.status == 0, "\(first.stderr)")
            let asked = try archive.requests()
            #expect(asked.count == 1)
            #expect(asked.first?.query["start_date"] == "1991-01-01" && asked.first?.query["end_date"] == "2020-12-31")
            #expect(asked.first?.query["daily"] == "temperature_2m_max,temperature_2m_min")
            #expect(asked.first?.query["timezone"] == "Europe/Oslo" && asked.first?.query["latitude"] == "59.9127")
            // Counted by Open-Meteo's budget: the forecast, the air quality and the archive.
            let forecasts = await log.count()
            #expect(try Self.ledgerCalls(site) == forecasts + 1)
            #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".isobar/cache/oslo-no/open-meteo-archive.json").path))
            let page = try Self.page(site)
            #expect(page.contains("than normal for") || page.contains("About normal for"), "no comparison on the page")
            #expect(page.contains("class=\"day-normal\">Normal "))

            // Later runs: from the history's table, never asked again, even with the cached answer gone.
            try FileManager.default.removeItem(at: site.url.appendingPathComponent(".isobar/cache/oslo-no/open-meteo-archive.json"))
            let second = try await IsobarRun.launch(["build"], in: site.url)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(try archive.requests().count == 1)
            #expect(try Self.page(site).contains("class=\"day-normal\">Normal "))
        }
    }

    @Test func anArchiveThatFailsLeavesThePageWithoutNormalsAndIsAskedAgainLater() async throws {
        try await Self.withSite(archiveMode: "unavailable") { site, archive, _ in
            let run = try await IsobarRun.launch(["build"], in: site.url)
            #expect(run.status == 0, "a missing normal never fails the city: \(run.stderr)")
            #expect(run.stderr.contains("Oslo: no climate normals this run") && run.stderr.contains("/v1/archive"), "\(run.stderr)")
            let page = try Self.page(site)
            #expect(!page.contains("than normal") && !page.contains("About normal") && !page.contains("day-normal"))
            let again = try await IsobarRun.launch(["build"], in: site.url)
            #expect(again.status == 0)
            #expect(try archive.requests().count > 1, "asked again on the next run")
        }
    }

    /// Normals kept in the history come back as they were kept, every city's in one read;
    /// a city with none kept is absent.
    @Test func keptNormalsAreReadBackWhole() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try SQLiteHistory(file: folder.url.appendingPathComponent("history.sqlite"))
        defer { store.close() }
        let oslo = ClimateNormals(source: "open-meteo-era5 1991-2020", days: [
            .init(month: 1, day: 1): .init(high: -1.25, low: -6.5), .leapDay: .init(high: 0.1, low: -5.9),
        ])
        let lod = ClimateNormals(source: "normals.csv", days: [.init(month: 11, day: 25): .init(high: 22, low: 11.5)])
        try store.keep(oslo, of: "oslo-no")
        try store.keep(lod, of: "lod-il")
        #expect(try store.normals(of: ["oslo-no", "lod-il", "rome-it"]) == ["oslo-no": oslo, "lod-il": lod])
    }

    @Test func normalsOffAsksNothing() async throws {
        try await Self.withSite(normals: "off") { site, archive, _ in
            let run = try await IsobarRun.launch(["build"], in: site.url)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try archive.requests().isEmpty)
            #expect(!(try Self.page(site)).contains("day-normal"))
        }
    }

    @Test func aBadNormalsFileStopsTheBuildNamingTheLine() async throws {
        try await Self.withSite(normals: "{ file: Data/normals.csv }") { site, archive, _ in
            _ = try site.write("slug,month,day,high,low\noslo-no,11,31,3,-2\n", to: "Data/normals.csv")
            let run = try await IsobarRun.launch(["build"], in: site.url)
            #expect(run.status == 1)
            #expect(run.stderr.contains("normals.csv:2") && run.stderr.contains("not a calendar day"), "\(run.stderr)")
            let check = try await IsobarRun.launch(["check"], in: site.url)
            #expect(check.status == 1 && check.stderr.contains("normals.csv:2"), "\(check.stderr)")
            #expect(try archive.requests().isEmpty)
        }
    }
}
