import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// Retention (`SQLiteHistory.prune`): months of simulated runs with an injected clock,
/// pruned once a day, against an unpruned copy fed the same runs. What the pages read is
/// the same in both on every simulated day; the detail stays within its bounds.
@Suite struct HistoryRetentionTests {
    /// 2026-01-01T00:00Z: the simulation crosses Berlin's change to summer time (29 March).
    static let start = 1_767_225_600

    /// A simulated city: its zone, its forecast's step (1 h as One Call, 3 h as the free
    /// 2.5 API) and length, and the run after which it stops updating.
    struct City {
        var slug: String
        var zone: TimeZone
        var stepHours: Int
        var steps: Int
        var lastRun = Int.max
    }

    /// The weather: a season, a day's cycle and some noise, all from the time alone.
    static func temperature(_ time: Int) -> Double {
        let day = Double(time - start) / 86_400
        let noise = Double((time / 900 &* 2_654_435_761) % 1_000) / 500
        return 5 + 8 * sin(2 * .pi * (day - 100) / 365) + 5 * sin(2 * .pi * (day - 0.375)) + noise
    }

    static func rain(_ time: Int) -> Double? {
        (time / 3600) % 7 == 0 ? 0.2 + Double((time / 3600) % 5) / 10 : nil
    }

    /// Run `run`'s entry for `city` at `time`: its hourly steps start at the current clock
    /// hour (as One Call's do) and miss by 1 °C per 24 h of lead; its daily forecasts start
    /// with the local day.
    static func entry(_ template: HistoryEntry, _ city: City, time: Int) -> HistoryEntry {
        var entry = template
        entry.city = city.slug
        entry.timeZone = city.zone.identifier
        entry.time = Date(timeIntervalSince1970: TimeInterval(time))
        entry.day = LocalDay.key(for: entry.time, in: city.zone)
        entry.current.time = entry.time
        entry.current.temperature = temperature(time)
        entry.current.rainLastHour = rain(time)
        entry.current.snowLastHour = nil
        let hour = time / 3600 * 3600
        entry.hourly = (0..<city.steps).map { index in
            var step = template.hourly[0]
            let target = hour + index * city.stepHours * 3600
            step.time = Date(timeIntervalSince1970: TimeInterval(target))
            step.stepHours = city.stepHours
            step.temperature = temperature(target) + Double(target - time) / 86_400
            step.precipitationChance = rain(target) == nil ? 0.2 : 0.7
            return step
        }
        return entry
    }

    /// Hours between runs.
    static let cadence = 2
    static let runsPerDay = 24 / cadence

    /// A run's data time: every `cadence` hours, a few minutes past (0–19), so leads are
    /// rarely whole hours.
    static func time(ofRun run: Int) -> Int {
        start + run * cadence * 3600 + (run * 7 % 20) * 60
    }

    static func template() throws -> HistoryEntry {
        HistoryEntry(city: "x", forecast: try Fixtures.forecast())
    }

    /// A store that does not wait for the disk: the simulation commits thousands of times.
    static func store(_ folder: TemporaryFolder, _ name: String) throws -> SQLiteHistory {
        let store = try SQLiteHistory(file: folder.url.appendingPathComponent(name))
        try store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = OFF") }
        return store
    }

    /// Every city's rows are within the policy's bounds relative to `min(now, newest)`.
    static func checkBounds(_ store: SQLiteHistory, now: Int, cities: [City]) throws {
        for city in cities {
            let newest = try store.int("SELECT max(time) FROM observation WHERE city = ?", [city.slug])
            let reference = min(now, newest)
            #expect(try store.int("SELECT min(time) FROM observation WHERE city = ?", [city.slug]) >= reference - 30 * 86_400)
            // Hours kept for the checks: none more than 30 days past its target, none more
            // than the longest lead ahead.
            #expect(try store.int("SELECT count(*) FROM forecast_lead WHERE city = ?1 AND target < ?2 - 30 * 86400", [city.slug, reference]) == 0)
            #expect(try store.int("SELECT count(*) FROM forecast_lead WHERE city = ?1 AND target > ?2 + 73 * 3600", [city.slug, reference]) == 0)
        }
    }

    /// 96 days of runs every 2 hours for two cities, one of which stops after 58 days: a
    /// prune a day at the build's clock, and every day (at a different hour each day) the
    /// pages' reads compared with an unpruned copy.
    @Test func simulatedMonthsPrunedDailyReadTheSame() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let pruned = try Self.store(folder, "pruned.sqlite"), full = try Self.store(folder, "full.sqlite")
        let template = try Self.template()
        let simulatedDays = 96, runs = simulatedDays * Self.runsPerDay
        let cities = [
            City(slug: "three-hourly", zone: TimeZone(identifier: "UTC")!, stepHours: 3, steps: 40),
            City(slug: "berlin", zone: TimeZone(identifier: "Europe/Berlin")!, stepHours: 1, steps: 48, lastRun: 58 * Self.runsPerDay),
        ]
        var prunes: [Int] = []
        var compared = 0, withChecks = 0, withYesterday = 0, withToday = 0
        for run in 0..<runs {
            let time = Self.time(ofRun: run)
            // A gap of three runs now and then: days with fewer samples, yesterdays missing.
            if run % 250 < 3 && run > 0 { continue }
            // The pages of this run, read before it is recorded, once a day at a varying hour.
            var readBefore: [(city: String, date: Date, today: String, past: CityPast)] = []
            if run % Self.runsPerDay == (run / Self.runsPerDay * 5) % Self.runsPerDay {
                for city in cities {
                    let stopped = run > city.lastRun
                    let page = stopped ? Self.time(ofRun: city.lastRun) + 1800 : time
                    let date = Date(timeIntervalSince1970: TimeInterval(page))
                    let today = LocalDay.key(for: date, in: city.zone)
                    let a = try pruned.past(of: city.slug, before: date, today: today)
                    let b = try full.past(of: city.slug, before: date, today: today)
                    #expect(a == b, "\(city.slug) at run \(run)")
                    readBefore.append((city.slug, date, today, a))
                    let current = Self.entry(template, city, time: page).current
                    #expect(HistorySummary(past: a, current: current, today: today) == HistorySummary(past: b, current: current, today: today))
                    compared += 1
                    if a.checks.count == (city.steps * city.stepHours >= 72 ? 2 : 1) { withChecks += 1 }
                    if a.yesterday != nil { withYesterday += 1 }
                    if a.today != nil { withToday += 1 }
                }
            }
            let entries = cities.filter { run <= $0.lastRun }.map { Self.entry(template, $0, time: time) }
            #expect(try pruned.record(entries) == entries.count)
            _ = try full.record(entries)
            // A build run again on the same data reads the same past: today's summary now
            // holds its own observation, and the checks that observation paired are left out.
            for page in readBefore {
                let again = try pruned.past(of: page.city, before: page.date, today: page.today)
                #expect(again == page.past, "\(page.city) again at run \(run): \(again) \(page.past)")
            }
            // The build's clock, a little after the data time.
            let now = time + 90
            if try pruned.pruneIfDue(now: Date(timeIntervalSince1970: TimeInterval(now))) != nil {
                prunes.append(now)
                try Self.checkBounds(pruned, now: now, cities: cities)
            }
        }
        #expect(compared == 2 * simulatedDays && withChecks > 150 && withYesterday > 150 && withToday > 150,
                "\(compared) \(withChecks) \(withYesterday) \(withToday): the comparisons saw every part")
        // Once a day: never sooner than 24 h after the last, and at the first run after
        // (which a gap of three runs puts off by up to 8 hours).
        #expect(prunes.count >= simulatedDays * 3 / 4 && prunes.count <= simulatedDays)
        #expect(zip(prunes, prunes.dropFirst()).allSatisfy { $1 - $0 >= 86_400 && $1 - $0 <= 86_400 + 9 * 3600 })

        // The days' figures are all there, as the unpruned copy has them, and as its raw rows give them.
        let days = "SELECT * FROM day ORDER BY city, day"
        #expect(try pruned.rows(days) == full.rows(days))
        #expect(try pruned.int("SELECT count(*) FROM day WHERE city = 'three-hourly' AND samples > 0") == simulatedDays)
        try full.expectDaysRecomputed()
        let last = Self.time(ofRun: cities[1].lastRun)
        // The city that stopped keeps its last month of detail.
        #expect(try pruned.int("SELECT max(time) FROM observation WHERE city = 'berlin'") == last)
        #expect(try pruned.int("SELECT count(*) FROM observation WHERE city = 'berlin'") >= 30 * Self.runsPerDay - 3)
        #expect(try pruned.int("SELECT count(*) FROM observation") < full.int("SELECT count(*) FROM observation") / 2)
    }

    /// A prune within a day of the last does nothing; a clock a day or more away either way prunes.
    @Test func aPruneIsDueOnceADay() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder, "history.sqlite")
        let city = City(slug: "x", zone: TimeZone(identifier: "UTC")!, stepHours: 1, steps: 48)
        let template = try Self.template()
        _ = try store.record((0..<72).map { Self.entry(template, city, time: Self.time(ofRun: $0)) })
        #expect(try store.lastPrune() == nil)
        let now = Self.time(ofRun: 71) + 60
        let first = try #require(try store.pruneIfDue(now: Date(timeIntervalSince1970: TimeInterval(now))))
        // Nothing is 30 days old yet.
        #expect(first.cities == 1 && first.observations == 0 && first.forecastLeads == 0)
        #expect(try store.lastPrune() == Date(timeIntervalSince1970: TimeInterval(now)))
        #expect(try store.pruneIfDue(now: Date(timeIntervalSince1970: TimeInterval(now + 86_399))) == nil)
        #expect(try store.pruneIfDue(now: Date(timeIntervalSince1970: TimeInterval(now - 86_400))) != nil, "a clock set back a day")
        #expect(try store.pruneIfDue(now: Date(timeIntervalSince1970: TimeInterval(now))) != nil)
        // Pruning again removes nothing more.
        #expect(try store.prune(now: Date(timeIntervalSince1970: TimeInterval(now))).rows == 0)
    }

    /// A file at schema v1–v6 (only development builds wrote them) is refused, named with
    /// the fix, and left as it was.
    @Test func aDevelopmentSchemaIsRefusedWithTheFix() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = folder.url.appendingPathComponent("history.sqlite")
        do {
            let queue = try DatabaseQueue(path: file.path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); CREATE TABLE observation (city TEXT)")
                for version in ["v1", "v2", "v3", "v4", "v5"] { try db.execute(sql: "INSERT INTO grdb_migrations VALUES (?)", arguments: [version]) }
            }
            try queue.close()
        }
        #expect {
            _ = try SQLiteHistory(file: file)
        } throws: { error in
            let error = (error as? SQLiteHistory.Unavailable)?.error
            return error?.path == file.path && error?.message.contains("schema v5") == true && error?.hint?.contains("isobar 2db3594") == true
        }
        let queue = try DatabaseQueue(path: file.path)
        #expect(try queue.read { try $0.tableExists("day") } == false)
    }

    /// London's run of 40 days before the demo's data time: every time in it moved back.
    static func oldRun() throws -> HistoryEntry {
        let shift = -40 * 86_400.0
        var entry = HistoryEntry(city: "london-gb", forecast: try Fixtures.forecast(hoursAfter: shift / 3600))
        entry.hourly = entry.hourly.map { step in
            var step = step
            step.time += shift
            return step
        }
        return entry
    }

    /// `isobar history prune` on a built demo site with an old run of London's added:
    /// that run's rows go, the summaries stay, the counts and sizes are printed.
    @Test func historyPruneCommand() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let build = try await IsobarRun.launch(["build"], in: site.url)
        #expect(build.status == 0, "\(build.stderr)")
        let file = site.url.appendingPathComponent(".isobar/history.sqlite")
        let old = try Self.oldRun()
        do {
            let store = try SQLiteHistory(file: file)
            #expect(try store.record([old]) == 1)
        }
        let prune = try await IsobarRun.launch(["history", "prune"], in: site.url)
        #expect(prune.status == 0, "\(prune.stderr)")
        let lines = Self.lines(prune.stdout)
        #expect(lines.first == "pruned 8 cities, rows removed:", "\(prune.stdout)")
        #expect(lines.dropFirst().prefix(2) == ["observations 1 (their days' summaries are kept)", "forecast hours kept for checks 0"],
                "\(prune.stdout)")
        #expect(prune.stdout.contains("\(file.path): ") && prune.stdout.contains(" MB → ") && prune.stdout.contains("--vacuum"), "\(prune.stdout)")
        let store = try SQLiteHistory(file: file)
        #expect(try store.int("SELECT count(*) FROM observation") == 8)
        #expect(try store.int("SELECT count(*) FROM day WHERE samples > 0") == 9, "the old run's day is kept")
        let vacuum = try await IsobarRun.launch(["history", "prune", "--vacuum"], in: site.url)
        #expect(vacuum.status == 0 && Self.lines(vacuum.stdout).contains("observations 0 (their days' summaries are kept)")
                && vacuum.stdout.hasSuffix("(vacuumed)\n"), "\(vacuum.stdout)")
    }

    /// The lines of a text with its runs of spaces made one (the table's padding).
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
    }

    /// Builds prune at most once a day by their clock (SOURCE_DATE_EPOCH here): the
    /// summary and the report say when they did.
    @Test func buildsPruneOnceADay() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let dataTime = try Fixtures.forecast().current.time.timeIntervalSince1970
        func build(hoursAfter hours: Int) async throws -> (IsobarRun, [String: Any]) {
            let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url,
                                                 environment: ["SOURCE_DATE_EPOCH": String(Int(dataTime) + hours * 3600)])
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as? [String: Any]
            return (run, try #require(report?["history"] as? [String: Any]))
        }
        let (first, firstReport) = try await build(hoursAfter: 1)
        #expect(first.status == 0 && first.stderr.contains("; 8 recorded in the history, 0 old rows pruned"), "\(first.stderr)")
        #expect(firstReport["pruned"] as? Int == 0)
        let (second, secondReport) = try await build(hoursAfter: 2)
        #expect(second.status == 0 && second.stderr.contains("; 0 recorded in the history") && !second.stderr.contains("pruned"), "\(second.stderr)")
        #expect(secondReport["pruned"] == nil)
        // An old run of London's, then a build a day later: its rows are pruned.
        let old = try Self.oldRun()
        _ = try SQLiteHistory(file: site.url.appendingPathComponent(".isobar/history.sqlite")).record([old])
        let rows = 1  // its observation (its two hours are not 24 or 72 hours ahead: none kept for the checks)
        let (third, thirdReport) = try await build(hoursAfter: 25)
        #expect(third.status == 0 && third.stderr.contains("; 0 recorded in the history, \(rows) old rows pruned"), "\(third.stderr)")
        #expect(thirdReport["pruned"] as? Int == rows)
    }

    /// A prune that fails (here a trigger refuses the deletes) is a warning and exit 2,
    /// like a recording that fails; the cities are recorded all the same.
    @Test func aFailedPruneWarnsAndExitsTwo() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let file = site.url.appendingPathComponent(".isobar/history.sqlite")
        do {
            let store = try SQLiteHistory(file: file)
            _ = try store.record([try Self.oldRun()])
            try await store.database.write { db in
                try db.execute(sql: "CREATE TRIGGER refuse BEFORE DELETE ON observation BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END")
            }
        }
        let build = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
        #expect(build.status == 2, "\(build.stderr)")
        #expect(build.stderr.contains("\(file.path): warning: old rows were not pruned: the history database failed: refused by a trigger; "
                                      + "the next build tries again"), "\(build.stderr)")
        #expect(build.stderr.contains("; 8 recorded in the history, not pruned"), "\(build.stderr)")
        let store = try SQLiteHistory(file: file)
        #expect(try store.int("SELECT count(*) FROM observation") == 9)
        #expect(try store.lastPrune() == nil)
    }
}

/// How big the file gets and how long a prune takes, measured once and written into the
/// README ("History"): `ISOBAR_RETENTION_BENCH=year` (one city, a year of runs every 15
/// minutes, pruned daily) or `=cities` (2,000 cities a day after their last prune). Minutes
/// each, so not part of the suite.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ISOBAR_RETENTION_BENCH"] != nil))
struct HistoryRetentionBenchmark {
    static let which = ProcessInfo.processInfo.environment["ISOBAR_RETENTION_BENCH"] ?? ""

    static func report(_ store: SQLiteHistory, _ label: String) throws {
        try store.checkpoint()
        let tables = ["observation", "forecast_lead", "day"]
        let counts = try tables.map { "\($0) \(try store.int("SELECT count(*) FROM \($0)"))" }
        print("\(label): \(HistoryStatsTable.bytes(of: store.file).file) bytes; " + counts.joined(separator: ", "))
    }

    @Test(.enabled(if: which == "year")) func oneCityForAYear() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try HistoryRetentionTests.store(folder, "year.sqlite")
        let template = try HistoryRetentionTests.template()
        let city = HistoryRetentionTests.City(slug: "london-gb", zone: TimeZone(identifier: "Europe/London")!, stepHours: 1, steps: 48)
        var pruneSeconds: [Double] = []
        let started = Date()
        for run in 0..<(365 * 96) {
            let time = HistoryRetentionTests.start + run * 900
            _ = try store.record([HistoryRetentionTests.entry(template, city, time: time)])
            let clock = Date()
            if try store.pruneIfDue(now: Date(timeIntervalSince1970: TimeInterval(time + 60))) != nil {
                pruneSeconds.append(Date().timeIntervalSince(clock))
            }
            if run % (30 * 96) == 0 { try Self.report(store, "day \(run / 96)") }
        }
        print("recorded and pruned a year in \(Int(Date().timeIntervalSince(started))) s; \(pruneSeconds.count) prunes, "
              + "mean \(pruneSeconds.reduce(0, +) / Double(pruneSeconds.count) * 1000) ms, max \(pruneSeconds.max()! * 1000) ms")
        try Self.report(store, "after a year")
        try store.vacuum()
        try Self.report(store, "vacuumed")
    }

    /// 2,000 cities with 31 days of observations every 15 minutes and the last 2 days of
    /// runs' forecasts (48 hourly, 8 daily) with their hours for the checks, 31 days of checks: a day after their last
    /// prune. Made by SQL (recording 400,000 runs would take an hour here).
    @Test(.enabled(if: which == "cities")) func twoThousandCities() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try HistoryRetentionTests.store(folder, "cities.sqlite")
        let end = HistoryRetentionTests.start + 40 * 86_400
        let cities = 2_000
        var clock = Date()
        try store.database.write { db in
            let cte = "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < \(cities - 1)), "
            try db.execute(sql: cte + """
                k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < 31 * 96 - 1)
                INSERT INTO observation (city, time, source, time_zone, temperature, rain_1h, day)
                SELECT printf('city-%04d', i), ?1 - k * 900, 'onecall', 'UTC', 10 + k % 17, NULL, date(?1 - k * 900, 'unixepoch')
                FROM c, k ORDER BY 1, 2
                """, arguments: [end])
            // The hours kept for the checks: targets from 31 days back to 72 hours ahead.
            try db.execute(sql: cte + """
                l(l) AS (VALUES (24), (72)),
                h(h) AS (SELECT 0 UNION ALL SELECT h + 1 FROM h WHERE h < 34 * 24 - 1)
                INSERT INTO forecast_lead SELECT printf('city-%04d', i), ?1 / 3600 * 3600 + (72 - h - l) * 3600, l,
                       ?1 / 3600 * 3600 + (72 - h) * 3600, ?1 / 3600 * 3600 + (72 - h - l) * 3600, 10.5, 0.3
                FROM c, l, h ORDER BY 1, 2, 3
                """, arguments: [end])
        }
        print("made in \(Int(Date().timeIntervalSince(clock))) s")
        try Self.report(store, "before")
        clock = Date()
        let outcome = try store.prune(now: Date(timeIntervalSince1970: TimeInterval(end + 60)))
        print("prune: \(Date().timeIntervalSince(clock)) s, \(outcome)")
        try Self.report(store, "after")
        clock = Date()
        let again = try store.prune(now: Date(timeIntervalSince1970: TimeInterval(end + 120)))
        print("prune again: \(Date().timeIntervalSince(clock)) s, \(again.rows) rows")
    }
}
