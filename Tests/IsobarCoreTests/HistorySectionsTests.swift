import Foundation
import Testing
@testable import IsobarCore

/// The history sections' words and figures, from hand-made summaries: what each part says,
/// in the city's units, and that a part without the data to back it is left out.
@Suite struct HistorySectionsTests {
    static func day(_ key: String, _ low: Double, _ high: Double, rain: Double = 0) -> ObservedDay {
        ObservedDay(day: key, low: low, high: high, mean: (low + high) / 2, precipitation: rain, samples: 24)
    }

    static func current(_ temperature: Double, at time: Date = Date(timeIntervalSince1970: 1_795_435_200)) throws -> CurrentConditions {
        var current = try Fixtures.forecast().current
        current.time = time  // 2026-11-23T12:00Z
        current.temperature = temperature
        current.rainLastHour = nil
        current.snowLastHour = nil
        return current
    }

    /// November 2025 and 2026 recorded, with 23 November 2025 at 4–11 °C.
    static func past(yesterday: Double? = 9) -> CityPast {
        var days = (10...22).map { day(String(format: "2026-11-%02d", $0), 2 + Double($0 % 3), 8 + Double($0 % 4)) }
        days.insert(day("2025-11-23", 4, 11), at: 0)
        days.insert(day("2025-11-02", -3, 13), at: 0)
        return CityPast(days: days, today: day("2026-11-23", 5, 10), firstDay: "2025-11-02",
                        yesterday: yesterday.map { .init(time: Date(timeIntervalSince1970: 1_795_348_800), temperature: $0) },
                        checks: [
                            ForecastCheck(leadHours: 24, pairs: 200, days: 28, meanAbsoluteError: 1.26, likelyRain: 12, likelyRainHappened: 9),
                            ForecastCheck(leadHours: 72, pairs: 20, days: 2, meanAbsoluteError: 2.4, likelyRain: 3, likelyRainHappened: 1),
                        ])
    }

    @Test func whatThePageSays() throws {
        let summary = HistorySummary(past: Self.past(), current: try Self.current(12.4), today: "2026-11-23")
        #expect(summary.newRecords == [.warmestOnDate], "12.4 °C beats 23 November 2025's 11 °C, not 2 November 2025's 13 °C")
        let model = try #require(try Fixtures.presenter().history(summary, format: UnitFormatter(units: .metric, locale: Locale(identifier: "en"))))
        #expect(model.comparedWithYesterday == "3° warmer than yesterday at this time")
        #expect(model.newRecords == ["Today’s high so far, 12°C, is the warmest November 23 on record."])
        #expect(model.since == "November 2, 2025")
        let date = try #require(model.onThisDate)
        #expect(date.period == "November 23" && date.warmest.temperature.text == "12°" && date.warmest.date == "November 23, 2026")
        #expect(date.coldest.temperature.text == "4°" && date.coldest.datetime == "2025-11-23")
        let month = try #require(model.inThisMonth)
        #expect(month.period == "November" && month.coldest.temperature.text == "−3°" && month.coldest.datetime == "2025-11-02")
        // Only the 24 h check has enough pairs; its rain figure has enough likely hours.
        #expect(model.checks.map(\.text) == ["24 hours ahead: off by 1° on average, over 200 forecasts"])
        #expect(model.rainCheck == "Rain forecast 24 hours ahead at a chance of 50% or more fell 9 times out of 12 (75%).")
        #expect(model.pastWeek.map(\.datetime) == (16...22).map { "2026-11-\($0)" })
        #expect(model.pastWeek.last?.high?.text == "10°" && model.hasPastWeek)
        #expect(model.pastWeekChart.text.hasPrefix("<svg class=\"chart history-chart\"") && model.pastWeekChart.text.contains("<desc id=\"past-week-desc\">Highs from"))
    }

    @Test func differencesAreInTheCitysScale() throws {
        let imperial = UnitFormatter(units: .imperial, locale: Locale(identifier: "en"))
        let colder = HistorySummary(past: Self.past(yesterday: 12), current: try Self.current(9), today: "2026-11-23")
        #expect(try Fixtures.presenter().history(colder, format: imperial)?.comparedWithYesterday == "5° colder than yesterday at this time")
        let same = HistorySummary(past: Self.past(yesterday: 9.2), current: try Self.current(9), today: "2026-11-23")
        #expect(try Fixtures.presenter().history(same, format: imperial)?.comparedWithYesterday == "About the same as yesterday at this time")
        let kelvin = UnitFormatter(units: .standard, locale: Locale(identifier: "en"))
        #expect(try Fixtures.presenter().history(colder, format: kelvin)?.comparedWithYesterday == "3 K colder than yesterday at this time")
    }

    @Test func nothingIsShownThatTheHistoryCannotBack() throws {
        let metric = UnitFormatter(units: .metric, locale: Locale(identifier: "en"))
        // A first run: no past at all, so no section.
        let first = HistorySummary(past: CityPast(), current: try Self.current(8), today: "2026-11-23")
        #expect(try Fixtures.presenter().history(first, format: metric) == nil)
        #expect(first.newRecords.isEmpty, "no earlier day, so no record to break")
        // A day later: yesterday and one day of the week, a month record set, but no
        // record for the date (no earlier year) and too few pairs to check.
        let second = HistorySummary(
            past: CityPast(days: [Self.day("2026-11-22", 3, 7)], firstDay: "2026-11-22", yesterday: .init(time: Date(timeIntervalSince1970: 1_795_348_800), temperature: 6),
                           checks: [ForecastCheck(leadHours: 24, pairs: 8, days: 1, meanAbsoluteError: 1, likelyRain: 0, likelyRainHappened: 0)]),
            current: try Self.current(8), today: "2026-11-23")
        let model = try #require(try Fixtures.presenter().history(second, format: metric))
        #expect(model.onThisDate == nil && model.inThisMonth != nil && !model.hasChecks && model.rainCheck == nil)
        #expect(model.pastWeek.filter { $0.high != nil }.count == 1)
        #expect(second.newRecords.isEmpty, "one earlier day of November is not a record to speak of")
        #expect(model.pastWeekSummary == "Highs from 7° to 7°, lows from 3° to 3°. No observations on Mon, Nov 16, Tue, Nov 17, Wed, Nov 18, Thu, Nov 19, Fri, Nov 20, Sat, Nov 21.")
        // The chart leaves the missing days open: one day drawn, no line through the gaps.
        #expect(model.pastWeekChart.text.components(separatedBy: "history-range").count == 2)
        #expect(!model.pastWeekChart.text.contains("history-highs"))
    }

    @Test func forecastJSONCarriesTheSummary() throws {
        struct Document: Decodable { var history: HistorySummary }
        let summary = HistorySummary(past: Self.past(), current: try Self.current(12.4), today: "2026-11-23")
        let data = try ForecastJSON.data(try Fixtures.forecast(), slug: "x", history: summary)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // Read back and written again, it is the same file (numbers are written to six
        // decimals, so a mean reads back rounded, not bit for bit).
        let read = try decoder.decode(Document.self, from: data).history
        #expect(try ForecastJSON.data(try Fixtures.forecast(), slug: "x", history: read) == data)
        #expect(read.newRecords == summary.newRecords && read.pastWeek == summary.pastWeek && read.yesterday?.time == summary.yesterday?.time)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""newRecords":["warmestOnDate"]"#) && text.contains(#""since":"2025-11-02""#))
    }
}

/// The pages follow the history: a past recorded after a page was built (an import)
/// rebuilds that city's page with it, and only that city's.
@Suite struct HistoryPagesTests {
    @Test func aPageIsRebuiltWhenItsPastChanges() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let first = try await IsobarRun.launch(["build"], in: site.url)
        #expect(first.status == 0, "\(first.stderr)")
        let london = site.url.appendingPathComponent("_site/london-gb/index.html")
        let paris = site.url.appendingPathComponent("_site/paris-fr/index.html")
        let before = try String(contentsOf: london, encoding: .utf8)
        let parisBefore = try FileManager.default.attributesOfItem(atPath: paris.path)[.modificationDate] as? Date
        // London's observation of a day earlier, 2 °C colder, recorded after the build.
        let store = try SQLiteHistory(file: site.url.appendingPathComponent(".isobar/history.sqlite"))
        let stats = try #require(try store.stats().first { $0.city == "london-gb" })
        var forecast = try Fixtures.forecast()
        forecast.location.timeZoneIdentifier = "Europe/London"
        let data = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("_site/london-gb/forecast.json"))) as? [String: Any]
        let temperature = try #require(((data?["forecast"] as? [String: Any])?["current"] as? [String: Any])?["temperature"] as? Double)
        forecast.current.time = try #require(stats.last) - 86_400
        forecast.current.temperature = temperature - 2
        #expect(try store.record([HistoryEntry(city: "london-gb", forecast: forecast)]) == 1)

        let second = try await IsobarRun.launch(["build"], in: site.url)
        #expect(second.status == 0, "\(second.stderr)")
        let after = try String(contentsOf: london, encoding: .utf8)
        #expect(!before.contains("than yesterday at this time"))
        #expect(after.contains("<p class=\"history-yesterday\">2° warmer than yesterday at this time</p>"), "\(after)")
        #expect(try FileManager.default.attributesOfItem(atPath: paris.path)[.modificationDate] as? Date == parisBefore, "Paris's past did not change")
    }
}
