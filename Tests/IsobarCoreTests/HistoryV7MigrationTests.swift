import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// A v7 file, what releases wrote, opened by this Isobar: migrated to v8 once, and the
/// pages' history says what it said under v7.
///
/// `Fixtures/history-v7/history.sqlite` was recorded by isobar at 2db3594 (History/ as
/// released; the binary built from main at d0bcef4, whose History/ is 2db3594's) in a site
/// of London and New York: `history import` of the last 40 of `Samples/past`'s times,
/// then of all 80 (the first 40 out of time order, v7's other path), then `build` at the
/// samples' data time (SOURCE_DATE_EPOCH=1795348800), which recorded the samples and
/// pruned; then VACUUMed. `history.json` holds that build's `history` of each city's
/// `forecast.json`: v7's `past()` before the samples' data time, as the page shows it.
@Suite struct HistoryV7MigrationTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("history-v7")
    static let cities = ["london-gb", "new-york-us"]

    static func site() throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Samples", "Templates", "Public", "Data"])
        _ = try site.write("""
            title: Isobar Weather
            base_url: https://weather.example.org/
            language: en
            units: metric
            provider: snapshot
            snapshot_dir: Samples
            cities:
              - { name: London, country: GB }
              - { name: New York, country: US, state: NY, units: imperial }
            """, to: "isobar.yml")
        let history = site.url.appendingPathComponent(".isobar/history.sqlite")
        try FileManager.default.createDirectory(at: history.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("history.sqlite"), to: history)
        return site
    }

    @Test func aVersionSevenFileIsMigratedAndThePagesSayTheSame() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Fixtures.epoch)
        try #require(run.status == 0, "\(run.stderr)")
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.folder.appendingPathComponent("history.json"))) as? NSDictionary)
        for city in Self.cities {
            let built = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("_site/\(city)/forecast.json"))) as? NSDictionary
            let history = try #require(built?["history"] as? NSDictionary)
            #expect(history == expected[city] as? NSDictionary, "\(city): \(history)")
        }

        let store = try SQLiteHistory(file: site.url.appendingPathComponent(".isobar/history.sqlite"))
        defer { store.close() }
        let tables = try await store.database.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name") }
        #expect(tables == ["city", "day", "forecast_lead", "grdb_migrations", "meta", "normal", "observation"])
        await #expect(try store.database.read { try HistorySchema.migrator.appliedIdentifiers($0) } == ["v8", "v9"])
        #expect(try store.int("SELECT count(*) FROM observation") == 162)
        // The migrated days are what their raw rows give (all of them are within 31 days).
        try store.expectDaysRecomputed()
    }

    /// The v7 file's past, read straight from the migrated store, is the page's.
    @Test func pastReadsBackWhatVersionSevenRead() throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let store = try SQLiteHistory(file: site.url.appendingPathComponent(".isobar/history.sqlite"))
        defer { store.close() }
        for (city, zone) in zip(Self.cities, ["Europe/London", "America/New_York"]) {
            // The samples' data time, the last recorded.
            let newest = try store.int("SELECT max(time) FROM observation WHERE city = ?", [city])
            let time = Date(timeIntervalSince1970: TimeInterval(newest))
            let past = try store.past(of: city, before: time, today: LocalDay.key(for: time, in: TimeZone(identifier: zone)!))
            #expect(past.checks.map(\.pairs) == [72, 56], "\(city)")
            #expect(past.firstDay == "2026-11-12" && past.yesterday != nil && past.today != nil, "\(city)")
        }
    }
}
