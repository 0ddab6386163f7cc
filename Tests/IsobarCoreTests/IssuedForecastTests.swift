import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// A forecast as issued is kept as one row with its hours and days packed: they read back
/// as recorded (to Float32's digits), and a file of the first schema, a row per hour and
/// day, is migrated into that form with its checks paired.
@Suite struct IssuedForecastTests {
    /// A value as the blob gives it back: Float32, to the thousandth.
    static func packed(_ value: Double?) -> Double? {
        value.map { (Double(Float($0)) * 1000).rounded() / 1000 }
    }

    /// What a recorded forecast should read back as.
    static func expected(_ entry: HistoryEntry) -> IssuedForecast {
        var forecast = IssuedForecast(entry)
        for index in forecast.hours.indices {
            var hour = forecast.hours[index]
            hour.temperature = packed(hour.temperature)!
            for path in [\IssuedForecast.Hour.feelsLike, \.humidity, \.dewPoint, \.pressure, \.precipitationChance, \.rain, \.snow,
                         \.windSpeed, \.windGust, \.windDirection, \.cloudCover, \.visibility, \.uvIndex] {
                hour[keyPath: path] = packed(hour[keyPath: path])
            }
            forecast.hours[index] = hour
        }
        for index in forecast.days.indices {
            var day = forecast.days[index]
            day.temperatureMin = packed(day.temperatureMin)!
            day.temperatureMax = packed(day.temperatureMax)!
            for path in [\IssuedForecast.Day.precipitationChance, \.rain, \.snow, \.windSpeed, \.windGust, \.uvIndex] {
                day[keyPath: path] = packed(day[keyPath: path])
            }
            forecast.days[index] = day
        }
        return forecast
    }

    static func stored(_ file: URL) throws -> [Int64: IssuedForecast] {
        try DatabaseQueue(path: file.path).read { db in
            var runs: [Int64: IssuedForecast] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT issued, hours, days FROM forecast") {
                runs[row["issued"]] = IssuedForecast(hours: [UInt8](row["hours"] as Data), days: [UInt8](row["days"] as Data))
            }
            return runs
        }
    }

    @Test func aRecordedForecastReadsBackAsIssued() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = folder.url.appendingPathComponent("history.sqlite")
        let entry = HistoryEntry(city: "london-gb", forecast: try Fixtures.forecast())
        #expect(!entry.hourly.isEmpty && !entry.daily.isEmpty)
        // Recording packs the entry's own hours and days: the same bytes as its values'.
        #expect(IssuedForecast.hoursBlob(entry.hourly) == IssuedForecast(entry).hoursBlob)
        #expect(IssuedForecast.daysBlob(entry.daily) == IssuedForecast(entry).daysBlob)
        #expect(try SQLiteHistory(file: file).record([entry]) == 1)
        let runs = try Self.stored(file)
        #expect(runs.count == 1)
        #expect(runs[Int64(entry.time.timeIntervalSince1970)] == Self.expected(entry))
        // A value the API did not send stays absent, not 0.
        #expect(entry.hourly.contains { $0.uvIndex == nil } == runs.values.first!.hours.contains { $0.uvIndex == nil })
        // Not a blob of whole records: refused, not misread.
        #expect(IssuedForecast(hours: [1, 2, 3], days: [1]) == nil)
        #expect(IssuedForecast(hours: [9], days: [1]) == nil)
    }

    /// The blobs' layout byte for byte, as the type's documentation gives it: files
    /// written by earlier builds are read with it.
    @Test func theBlobsKeepTheirDocumentedLayout() {
        let forecast = IssuedForecast(
            hours: [IssuedForecast.Hour(target: 1_700_000_000, stepHours: 1, condition: 500, temperature: 1.5)],
            days: [IssuedForecast.Day(day: "2026-11-25", condition: 800, temperatureMin: -2, temperatureMax: 4)])
        let nan: [UInt8] = [0x00, 0x00, 0xC0, 0x7F]
        #expect(forecast.hoursBlob == [1] + [0x00, 0xF1, 0x53, 0x65, 0, 0, 0, 0] + [1] + [0xF4, 0x01] + [0x00, 0x00, 0xC0, 0x3F]
                + Array([[UInt8]](repeating: nan, count: 13).joined()))
        #expect(forecast.daysBlob == [1] + Array("2026-11-25".utf8) + [0x20, 0x03] + [0x00, 0x00, 0x00, 0xC0] + [0x00, 0x00, 0x80, 0x40]
                + Array([[UInt8]](repeating: nan, count: 6).joined()))
        #expect(IssuedForecast(hours: [], days: [IssuedForecast.Day(day: "short", condition: 800, temperatureMin: 0, temperatureMax: 0)]).daysBlob[1...10]
                == ArraySlice(Array("short     ".utf8)), "a short day key is padded with spaces")
    }

    /// A file written by the first Isobar with a history (schema v1) keeps its forecasts
    /// and pairs them: two runs 24 hours apart, the first's forecast (stretched to 48
    /// hours) for the second's hour.
    @Test func aFirstSchemaFileIsMigratedWithItsChecks() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = folder.url.appendingPathComponent("history.sqlite")
        let entries = try Self.twoRuns()
        let queue = try DatabaseQueue(path: file.path)
        try HistorySchema.migrator.migrate(queue, upTo: "v1")
        try queue.write { db in
            for entry in entries {
                let issued = Int64(entry.time.timeIntervalSince1970), now = entry.current
                try db.execute(sql: "INSERT INTO observation (city, time, source, time_zone, temperature, rain_1h, snow_1h, condition) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               arguments: [entry.city, issued, entry.source, entry.timeZone, now.temperature, now.rainLastHour, now.snowLastHour,
                                           now.conditions.first?.code])
                for step in entry.hourly {
                    try db.execute(sql: "INSERT INTO forecast_hour VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                        entry.city, issued, Int64(step.time.timeIntervalSince1970), step.stepHours, step.temperature, step.feelsLike,
                        step.humidity, step.dewPoint, step.pressure, step.precipitationChance, step.rain, step.snow, step.windSpeed,
                        step.windGust, step.windDirection, step.cloudCover, step.visibility, step.uvIndex, step.condition?.code ?? 0,
                    ])
                }
                for day in entry.daily {
                    try db.execute(sql: "INSERT INTO forecast_day VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                        entry.city, issued, day.day, day.temperatureMin, day.temperatureMax, day.precipitationChance, day.rain, day.snow,
                        day.windSpeed, day.windGust, day.uvIndex, day.condition?.code ?? 0,
                    ])
                }
            }
        }
        try queue.close()

        let store = try SQLiteHistory(file: file)
        let runs = try Self.stored(file)
        for entry in entries {
            #expect(runs[Int64(entry.time.timeIntervalSince1970)] == Self.expected(entry))
        }
        let tables = try store.database.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(!tables.contains("forecast_hour") && !tables.contains("forecast_day"))
        // The second run's hour was forecast 24 hours ahead by the first: one check.
        try Self.expectOneCheck(store, entries)
        #expect(try store.stats().first?.forecastHours == entries.map(\.hourly.count).reduce(0, +))
    }

    /// Two runs 24 hours apart, each forecast stretched to 48 hours.
    static func twoRuns() throws -> [HistoryEntry] {
        try [0.0, 24].map { hours in
            var forecast = try Fixtures.forecast(hoursAfter: hours)
            let first = try #require(forecast.hourly.first)
            forecast.hourly = (0..<48).map { index in
                var step = first
                step.time += Double(index) * 3600
                step.temperature += Double(index) / 10
                return step
            }
            return HistoryEntry(city: "london-gb", forecast: forecast)
        }
    }

    /// The second run's hour, forecast 24 hours ahead by the first, is the one check.
    static func expectOneCheck(_ store: SQLiteHistory, _ entries: [HistoryEntry]) throws {
        try HistoryRetentionTests.spill(store)
        let checks = try store.database.read { try Row.fetchAll($0, sql: "SELECT * FROM verification") }
        let hour = (Int64(entries[1].time.timeIntervalSince1970) + 1800) / 3600 * 3600
        let forecastThen = try #require(entries[0].hourly.first { Int64($0.time.timeIntervalSince1970) == hour })
        #expect(checks.count == 1)
        try HistoryRetentionTests.expectCheckDaysMatchPairs(store)
        #expect(checks.first?["lead_hours"] == 24 && checks.first?["forecast"] == forecastThen.temperature
                && checks.first?["observed"] == entries[1].current.temperature && checks.first?["target"] == hour)
    }

    /// An import of an older run after a newer one (out of order) still pairs its forecast
    /// with the observation already recorded.
    @Test func aRunRecordedLateIsPairedWithWhatWasObserved() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try SQLiteHistory(file: folder.url.appendingPathComponent("history.sqlite"))
        let entries = try Self.twoRuns()
        #expect(try store.record([entries[1]]) == 1)
        #expect(try store.record([entries[0]]) == 1)
        try Self.expectOneCheck(store, entries)
    }
}

extension IssuedForecast {
    /// The entry's forecast as values, to compare with what its blobs read back
    /// (recording packs the entry's own hours and days).
    init(_ entry: HistoryEntry) {
        self.init(hours: entry.hourly.map { step in
            Hour(target: step.targetSeconds, stepHours: step.stepHours, condition: step.conditionCode,
                 temperature: step.temperature, feelsLike: step.feelsLike, humidity: step.humidity, dewPoint: step.dewPoint,
                 pressure: step.pressure, precipitationChance: step.precipitationChance, rain: step.rain, snow: step.snow,
                 windSpeed: step.windSpeed, windGust: step.windGust, windDirection: step.windDirection,
                 cloudCover: step.cloudCover, visibility: step.visibility, uvIndex: step.uvIndex)
        }, days: entry.daily.map { day in
            Day(day: day.day, condition: day.conditionCode, temperatureMin: day.temperatureMin, temperatureMax: day.temperatureMax,
                precipitationChance: day.precipitationChance, rain: day.rain, snow: day.snow, windSpeed: day.windSpeed,
                windGust: day.windGust, uvIndex: day.uvIndex)
        })
    }
}
