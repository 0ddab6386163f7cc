import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// Each city's open day (`OpenDay`, `open_day`): within a day a run changes only the
/// city's one row of it; the day's rows reach the tables with the next day's first run;
/// and the pages read the same whether a city's day stayed open all along or was written
/// out into the tables and taken back after every run (`OpenDayRows.spill` and `fold`, as
/// a run recorded out of time order does).
@Suite struct OpenDayTests {
    typealias Simulation = HistoryRetentionTests

    static let derived = ["observed_day", "forecast_lead", "verification", "check_day"]

    static func counts(_ store: SQLiteHistory) throws -> [Int] {
        try derived.map { try Simulation.int(store, "SELECT count(*) FROM \($0)") }
    }

    @Test func aRunWithinTheDayWritesOnlyTheOpenDayAndTheNextDayWritesTheFinishedOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Simulation.store(folder, "history.sqlite")
        let city = Simulation.City(slug: "x", zone: TimeZone(identifier: "UTC")!, stepHours: 1, steps: 96)
        let template = try Simulation.template()
        // Runs every 2 hours from 1 January: runs 12–23 are 2 January's, 24 begins the 3rd.
        _ = try store.record((0..<13).map { Simulation.entry(template, city, time: Simulation.time(ofRun: $0)) })
        let atDayStart = try Self.counts(store)
        #expect(atDayStart[0] == 1, "1 January's summary")
        for run in 13..<24 {
            _ = try store.record([Simulation.entry(template, city, time: Simulation.time(ofRun: run))])
            #expect(try Self.counts(store) == atDayStart, "run \(run) wrote to the derived tables")
        }
        let open = try #require(try store.database.read { try OpenDayRows.load("x", $0) })
        #expect(open.tally.day == "2026-01-02" && open.tally.samples == 12)
        #expect(open.pairs.count == 12 && Set(open.pairs.map(\.lead)) == [24], "2 January's checks of forecasts made a day ahead")
        #expect(open.leads.allSatisfy { $0.target > Simulation.time(ofRun: 23) - 1800 } && open.leads.count > 30)

        _ = try store.record([Simulation.entry(template, city, time: Simulation.time(ofRun: 24))])
        let after = try Self.counts(store)
        #expect(after[0] == 2, "2 January's summary is written")
        #expect(after[2] == atDayStart[2] + 12, "its settled pairs are written")
        #expect(after[1] == 0, "the hours kept for the checks stay in the open day")
        try Simulation.expectCheckDaysMatchPairs(store)
        let next = try #require(try store.database.read { try OpenDayRows.load("x", $0) })
        #expect(next.tally.day == "2026-01-03" && next.tally.samples == 1 && next.pairs.allSatisfy { $0.target > Simulation.time(ofRun: 24) - 1800 })
    }

    /// A city whose time zone moves west in the night, so that its next run falls on the
    /// local day before its open day: that day's summary carries on from its row, and the
    /// day it left is written as it was.
    @Test func aTimeZoneMovedWestCarriesOnTheDayBefore() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Simulation.store(folder, "history.sqlite")
        let template = try Simulation.template()
        let utc = Simulation.City(slug: "x", zone: TimeZone(identifier: "UTC")!, stepHours: 1, steps: 48)
        var west = utc
        west.zone = TimeZone(identifier: "America/New_York")!
        // 1 January 20:00–23:00 and 2 January 00:30 UTC, then 01:30 UTC in New York (20:30 on 1 January).
        let day = Simulation.start
        let times = [20, 21, 22, 23].map { day + $0 * 3600 } + [day + 86_400 + 1800]
        _ = try store.record(times.map { Simulation.entry(template, utc, time: $0) })
        _ = try store.record([Simulation.entry(template, west, time: day + 86_400 + 5400)])
        let open = try #require(try store.database.read { try OpenDayRows.load("x", $0) })
        #expect(open.tally.day == "2026-01-01" && open.tally.samples == 5 && open.tally.lastTime == day + 86_400 + 5400)
        #expect(try Simulation.rows(store, "SELECT day, samples FROM observed_day").map { [$0[0] as String, "\($0[1] as Int)"] }
                == [["2026-01-02", "1"]])
        let past = try store.past(of: "x", before: Date(timeIntervalSince1970: TimeInterval(day + 86_400 + 7200)), today: "2026-01-01")
        #expect(past.today?.samples == 5 && past.days.isEmpty)
    }

    /// Ten simulated days of two cities (one of them in Berlin across its day's change at
    /// 23:00 UTC), one store keeping the open day, the other writing it into the tables and
    /// taking it back after every run: the same pages every run, the same tables at the end.
    @Test func spillingAndFoldingEveryRunReadsTheSame() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let kept = try Simulation.store(folder, "kept.sqlite")
        let spilled = try Simulation.store(folder, "spilled.sqlite")
        let cities = [Simulation.City(slug: "berlin", zone: TimeZone(identifier: "Europe/Berlin")!, stepHours: 1, steps: 96),
                      Simulation.City(slug: "three-hourly", zone: TimeZone(identifier: "America/New_York")!, stepHours: 3, steps: 40)]
        let template = try Simulation.template()
        var compared = 0, withChecks = 0
        for run in 0..<(10 * Simulation.runsPerDay) {
            let time = Simulation.time(ofRun: run)
            for city in cities {
                let today = LocalDay.key(for: Date(timeIntervalSince1970: TimeInterval(time)), in: city.zone)
                let at = Date(timeIntervalSince1970: TimeInterval(time))
                let page = try kept.past(of: city.slug, before: at, today: today)
                #expect(try spilled.past(of: city.slug, before: at, today: today) == page, "\(city.slug) run \(run)")
                compared += 1
                if !page.checks.isEmpty { withChecks += 1 }
            }
            let entries = cities.map { Simulation.entry(template, $0, time: time) }
            #expect(try kept.record(entries) == 2 && spilled.record(entries) == 2)
            try Simulation.spill(spilled)
        }
        #expect(compared == 20 * Simulation.runsPerDay && withChecks > 100, "\(withChecks) pages had checks")
        try Simulation.spill(kept)
        // The hours kept for the checks that a spill left behind once their target passed
        // stay in the table until retention takes them; the ones still of use are the same.
        let live = Simulation.time(ofRun: 10 * Simulation.runsPerDay - 1) - 1800
        for sql in ["SELECT * FROM observed_day ORDER BY city, day", "SELECT * FROM forecast_lead WHERE target > \(live) ORDER BY city, made, lead_hours",
                    "SELECT * FROM verification ORDER BY city, target, lead_hours", "SELECT * FROM check_day ORDER BY city, lead_hours, day"] {
            #expect(try Simulation.rows(kept, sql) == Simulation.rows(spilled, sql), "\(sql)")
        }
    }

    /// The blobs read back as written, and a long day's open day (a 25-hour day's pairs
    /// for both leads, three days of hours kept) stays within one 4 KiB page's row.
    @Test func theBlobsReadBackAndALongDayFitsOnePage() throws {
        let made = 1_795_000_000 / 3600 * 3600
        var leads: [OpenDay.Lead] = []
        for index in 0..<98 {
            let hour = made + index * 3600, lead = index % 2 == 0 ? 24 : 72
            let chance: Double? = index % 3 == 0 ? nil : OpenDay.storedChance(Double(index) / 98)
            leads.append(OpenDay.Lead(made: hour, lead: lead, issued: hour + (index % 5 - 2) * 400, temperature: -3.25 + Double(index) / 7,
                                      chance: chance))
        }
        var pairs: [OpenDay.Pair] = []
        for index in 0..<50 {
            let target = made + index * 3600, lead = index % 2 == 0 ? 24 : 72
            let chance: Double? = index % 4 == 0 ? nil : 0.55
            pairs.append(OpenDay.Pair(target: target, lead: lead, issued: target - lead * 3600 + 120, forecast: 11.1 + Double(index) / 3,
                                      chance: chance, observedTime: target - 1500 + index * 60, observed: 10 + Double(index) / 9,
                                      precipitated: index % 3 == 0))
        }
        let open = OpenDay(tally: DayTally(day: "2026-10-25", time: made, temperature: 4, precipitation: 0), leads: leads, pairs: pairs)
        #expect(OpenDay.leads(open.leadsBlob) == leads)
        #expect(OpenDay.pairs(open.pairsBlob) == pairs)
        #expect(OpenDay.leads([2, 0, 0]) == nil && OpenDay.pairs(Array(open.pairsBlob.dropLast())) == nil, "another version, or a record cut short")

        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try SQLiteHistory(file: folder.url.appendingPathComponent("history.sqlite"))
        try store.database.write { db in
            try OpenDayRows.save(open, of: "a-city-with-a-rather-long-slug-gb", db)
            #expect(try OpenDayRows.load("a-city-with-a-rather-long-slug-gb", db) == open)
        }
        // One leaf page, no overflow: the table's pages are its root (the row's leaf) only.
        let pages = try Simulation.int(store, "SELECT count(*) FROM dbstat WHERE name = 'open_day'")
        let payload = try Simulation.int(store, "SELECT sum(payload) FROM dbstat WHERE name = 'open_day'")
        #expect(pages == 1 && payload < 4_061, "\(pages) pages, \(payload) bytes")
    }
}
