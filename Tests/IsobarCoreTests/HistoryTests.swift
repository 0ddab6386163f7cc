import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// The history database: each run records every built city's observation and forecast
/// once per data time; a history that cannot be used (corrupt, newer, locked, not
/// creatable) is named, the run exits 2, and the site is built all the same.
@Suite struct HistoryTests {
    @Test func aDataTimeIsRecordedOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = folder.url.appendingPathComponent("deep/history.sqlite")
        let store = try SQLiteHistory(file: file)
        let forecast = try Fixtures.forecast()
        let entry = HistoryEntry(city: "london-gb", forecast: forecast)
        #expect(try store.record([entry]) == 1)
        #expect(try store.record([entry, entry]) == 0, "the same data time again adds nothing")
        let later = HistoryEntry(city: "london-gb", forecast: try Fixtures.forecast(hoursAfter: 1))
        #expect(try store.record([later]) == 1)
        let stats = try #require(try store.stats().first)
        #expect(stats.city == "london-gb" && stats.observations == 2)
        let leads = [entry, later].map { DayFacts.leads(of: $0.hourly, issued: Int($0.time.timeIntervalSince1970)).count }
        #expect(stats.forecastLeads == leads.reduce(0, +))
        #expect(stats.first == forecast.current.time && stats.last == forecast.current.time + 3600)

        // Every current value, in canonical units, as the forecast had it.
        let row = try DatabaseQueue(path: file.path).read { db in
            try Row.fetchOne(db, sql: "SELECT temperature, pressure, wind_speed, humidity FROM observation ORDER BY time LIMIT 1")
        }
        #expect(row?["temperature"] == forecast.current.temperature)
        #expect(row?["pressure"] == forecast.current.pressure)
        #expect(row?["wind_speed"] == forecast.current.windSpeed)
        #expect(row?["humidity"] == forecast.current.humidity)
        // WAL, as the history is written while pages may read it.
        let mode = try DatabaseQueue(path: file.path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    /// A history file moved, replaced or deleted while a build has it open: the pool's
    /// readers, which open the path as they first need it, say so rather than reading
    /// another file (an empty one: "no such table") or none. (A build's pages read through
    /// the snapshot it opened with the writer, which keeps reading the file it opened.)
    @Test(arguments: ["replaced", "deleted"])
    func aFileReplacedDuringTheBuildIsNamed(_ how: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = folder.url.appendingPathComponent("history.sqlite")
        let store = try SQLiteHistory(file: file)
        defer { store.close() }
        let forecast = try Fixtures.forecast()
        #expect(try store.record([HistoryEntry(city: "london-gb", forecast: forecast)]) == 1)
        try FileManager.default.moveItem(at: file, to: folder.url.appendingPathComponent("moved.sqlite"))
        if how == "replaced" { try Data().write(to: file) }
        let error = try #require(throws: SQLiteHistory.Unavailable.self) {
            try store.past(of: "london-gb", before: forecast.current.time + 3600, today: "2026-11-22")
        }
        #expect(error.file == file)
        #expect(error.reason == "was moved, replaced or deleted while this build was using it")
        #expect(error.hint.contains("leave"))
    }

    /// The demo, built twice: the first run records all eight cities, the second (same
    /// data times) nothing; `history stats` shows them.
    @Test func buildsRecordAndStatsShowIt() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let first = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("; 8 recorded in the history"), "\(first.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as? [String: Any]
        let history = try #require(report?["history"] as? [String: Any])
        #expect(history["recorded"] as? Int == 8 && history["error"] == nil)
        #expect((history["database"] as? String)?.hasSuffix(".isobar/history.sqlite") == true)
        #expect(history["recording_cpu_seconds"] is Double)
        // Every connection closed, the writer's last: its WAL went back into the file.
        let wal = site.url.appendingPathComponent(".isobar/history.sqlite-wal").path
        #expect(!FileManager.default.fileExists(atPath: wal), "the WAL is checkpointed and removed at the end of a build")
        let second = try await IsobarRun.launch(["build", "--output", "_other"], in: site.url)
        #expect(second.stderr.contains("; 0 recorded in the history"), "\(second.stderr)")
        let stats = try await IsobarRun.launch(["history", "stats"], in: site.url)
        #expect(stats.status == 0)
        #expect(stats.stdout.hasPrefix("city"))
        #expect(stats.stdout.contains("\n8 cities, 8 observations, "), "\(stats.stdout)")
        #expect(stats.stdout.contains("london-gb "))
    }

    @Test func noHistoryYetAndDisabled() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try (text + "\nhistory: { enabled: false }\n").write(to: config, atomically: true, encoding: .utf8)
        let build = try await IsobarRun.launch(["build"], in: site.url)
        #expect(build.status == 0 && !build.stderr.contains("history"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".isobar/history.sqlite").path))
        let stats = try await IsobarRun.launch(["history", "stats"], in: site.url)
        #expect(stats.stdout.contains("no history yet at") && stats.stdout.contains("(history.enabled is false)"))
        try (text + "\nhistory: { enabled: yes }\n").write(to: config, atomically: true, encoding: .utf8)
        let wrong = try await IsobarRun.launch(["check"], in: site.url)
        #expect(wrong.status == 1 && wrong.stderr.contains("expected true or false, found \"yes\""), "\(wrong.stderr)")
    }

    /// Each of these is named with the file, the run exits 2, and the site is built.
    @Test(arguments: ["corrupt", "newer", "uncreatable", "dangling", "locked"])
    func aHistoryThatCannotBeUsedStillBuildsTheSite(_ fault: String) async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        var file = site.url.appendingPathComponent(".isobar/history.sqlite")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var holder: Child?
        let expected: String
        switch fault {
        case "corrupt":
            try Data("this is not a database, just some text long enough to be read as a header".utf8).write(to: file)
            expected = "is corrupt"
        case "newer":
            _ = try SQLiteHistory(file: file)
            try await DatabaseQueue(path: file.path).write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
            }
            expected = "was written by a newer Isobar"
        case "uncreatable":
            // A file where its folder would be.
            let blocker = site.url.appendingPathComponent("blocker")
            try Data().write(to: blocker)
            file = blocker.appendingPathComponent("history.sqlite")
            let config = site.url.appendingPathComponent("isobar.yml")
            let text = try String(contentsOf: config, encoding: .utf8)
            try (text + "\nhistory: { database: blocker/history.sqlite }\n").write(to: config, atomically: true, encoding: .utf8)
            expected = "cannot be created"
        case "dangling":
            // Issue 54: a link to a history on a disk not mounted; no new one beside it.
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/mnt/not-mounted/history.sqlite")
            expected = "is a symbolic link to /mnt/not-mounted/history.sqlite, which does not exist"
        default:
            _ = try SQLiteHistory(file: file)
            // Another program holds the write lock for longer than the run waits (ten
            // minutes: however slow the machine, it holds it still; it is killed below).
            let process = try Child("/usr/bin/python3", ["-c", """
                import sqlite3, sys, time
                c = sqlite3.connect(sys.argv[1], isolation_level=None)
                c.execute("BEGIN EXCLUSIVE")
                print("locked", flush=True)
                time.sleep(600)
                """, file.path], stdout: .pipe)
            holder = process
            _ = process.stdout!.availableData  // "locked"
            expected = "is locked by another program"
        }
        defer { if let holder { holder.signal(SIGKILL); holder.waitForExit() } }
        let build = try await IsobarRun.launch(["build"], in: site.url)
        #expect(build.status == 2, "\(build.stderr)")
        #expect(build.stderr.contains("\(file.path): warning: the history database \(expected)"), "\(build.stderr)")
        #expect(build.stderr.contains("built 8 of 8 cities") && build.stderr.contains("history not recorded"), "\(build.stderr)")
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/london-gb/index.html").path))
        if fault == "corrupt" {
            #expect(try Data(contentsOf: file).starts(with: Data("this is not a database".utf8)), "the user's file is left as it was")
        }
        if fault == "dangling" {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == "/mnt/not-mounted/history.sqlite", "the link is left as it was")
        }
    }
}
