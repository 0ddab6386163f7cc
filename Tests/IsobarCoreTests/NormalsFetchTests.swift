import Foundation
import Testing
@testable import IsobarCore

/// `normals: archive`: the real binary against Open-Meteo's forecast stand-in and the
/// historical weather API's (`Tests/servers/archive_server.py`). Each city's archive is
/// asked once, counted by Open-Meteo's call budget, kept for good (the cache, and the
/// history's `normal` table), and never asked again.
@Suite(.serialized) struct NormalsFetchTests {
    static let oslo = "  - { name: Oslo, country: \"NO\", lat: 59.9127, lon: 10.7461, timezone: Europe/Oslo }"

    static func withSite(archiveMode: String = "ok", normals: String = "archive", cities: String = oslo,
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
            \(cities)
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
            let asked = try archive.requests().count  // with the run's retries
            let page = try Self.page(site)
            #expect(!page.contains("than normal") && !page.contains("About normal") && !page.contains("day-normal"))
            // Asked again on a run after the first wait (15 minutes), not before.
            let soon = try await IsobarRun.launch(["build"], in: site.url, environment: IsobarRun.clock(after: 300))
            #expect(try soon.status == 0 && archive.requests().count == asked)
            let again = try await IsobarRun.launch(["build"], in: site.url, environment: IsobarRun.clock(after: 960))
            #expect(again.status == 0)
            #expect(try archive.requests().count > asked, "asked again after the wait")
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

    /// Issue 54, case 2: an archive answer with no plausible day (every value 1e308, null,
    /// -1000 or 60.5) is not kept; the run says so in the log and the report, and asks
    /// again on a later run: after 15 minutes, then an hour, backing off to once a day.
    @Test(arguments: ["1e308", "null", "-1000", "60.5"])
    func anArchiveAnswerWithoutPlausibleDaysIsReportedAndAskedAgainLater(value: String) async throws {
        try await Self.withSite(archiveMode: "every:\(value)") { site, archive, _ in
            func run(minutesAfter minutes: Double) async throws -> (IsobarRun, [String: Any]) {
                let clock = String(Int(1_795_348_800 + minutes * 60))
                let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url, environment: ["SOURCE_DATE_EPOCH": clock])
                let report = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as! [String: Any]
                return (run, report)
            }
            let (first, report) = try await run(minutesAfter: 0)
            #expect(first.status == 0, "a missing normal never fails the city: \(first.stderr)")
            #expect(first.stderr.contains("Oslo: no climate normals this run:") && first.stderr.contains("plausible days of 10958")
                && first.stderr.contains("asked again after 2026-11-22T12:15:00Z"), "\(first.stderr)")
            let missing = (report["normals"] as? [String: Any])?["missing"] as? [[String: Any]]
            #expect(missing?.first?["city"] as? String == "oslo-no" && missing?.first?["asked_again_after"] as? String == "2026-11-22T12:15:00Z",
                    "\(report["normals"] ?? "no normals section")")
            #expect((missing?.first?["reason"] as? String)?.contains("had 0 plausible days of 10958") == true, "\(missing ?? [])")
            #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".isobar/cache/oslo-no/open-meteo-archive.json").path),
                    "an answer that cannot be averaged is not kept")
            #expect(!(try Self.page(site)).contains("day-normal"))

            // Five minutes later: not asked, and said when it will be.
            let (soon, _) = try await run(minutesAfter: 5)
            #expect(try archive.requests().count == 1)
            #expect(soon.stderr.contains("Oslo: no climate normals this run:") && soon.stderr.contains("asked again after 2026-11-22T12:15:00Z"), "\(soon.stderr)")
            // After the wait: asked again, and the next wait is four times longer.
            let (later, laterReport) = try await run(minutesAfter: 16)
            #expect(try archive.requests().count == 2, "asked again after the wait")
            #expect(later.stderr.contains("asked again after 2026-11-22T13:16:00Z"), "\(later.stderr)")
            #expect(((laterReport["normals"] as? [String: Any])?["missing"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test func theWaitGrowsFourfoldToOnceADay() {
        #expect((1...6).map { NormalsRetry.delay(afterFailures: $0) / 60 } == [15, 60, 240, 960, 1440, 1440])
    }

    /// An answer an earlier version kept without checking it is removed and asked again.
    @Test func aBadAnswerKeptByAnEarlierVersionIsAskedAgain() async throws {
        try await Self.withSite { site, archive, _ in
            let kept = #"{"latitude":59.9,"longitude":10.7,"utc_offset_seconds":0,"daily":{"time":["1991-01-01"],"temperature_2m_max":[1e308],"temperature_2m_min":[1e308]}}"#
            _ = try site.write(kept, to: ".isobar/cache/oslo-no/open-meteo-archive.json")
            let run = try await IsobarRun.launch(["build"], in: site.url)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try archive.requests().count == 1)
            #expect(try Self.page(site).contains("class=\"day-normal\">Normal "))
        }
    }

    /// Issue 54: new cities' archives are asked a few at once, so a slow archive costs
    /// a few of its answers' time, not one per city.
    @Test func newCitiesArchivesAreAskedInParallel() async throws {
        let cities = (1...6).map { "  - { name: Town \($0), country: \"NO\", lat: \(59 + Double($0) / 10), lon: 10.7, timezone: Europe/Oslo }" }
        try await Self.withSite(archiveMode: "slow", cities: cities.joined(separator: "\n")) { site, archive, _ in
            let run = try await IsobarRun.launch(["build"], in: site.url)
            #expect(run.status == 0, "\(run.stderr)")
            let asked = try archive.requests()
            #expect(asked.count == 6)
            // Some request arrived while another was still being answered.
            let overlapping = asked.contains { one in asked.contains { other in other.arrived > one.arrived && other.arrived < one.answered } }
            #expect(overlapping, "\(asked.map { ($0.arrived, $0.answered) })")
        }
    }
}
