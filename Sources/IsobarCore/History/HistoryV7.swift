import Foundation
import GRDB

/// A v7 file (what releases wrote) brought to v8: the forecast hours its checks paired
/// (`verification`) and those its open days held (`open_day`'s blobs) go back into
/// `forecast_lead`; its daily summaries (`observed_day`, the open day's) and per-UTC-day
/// checks (`check_day`) are copied into `day`, whose last 31 days are then recomputed from
/// the raw rows (never below what was copied: retention had thinned those out); then the
/// tables v8 derives or never read go (`open_day`, `observed_day`, `verification` and its
/// triggers, `check_day`, `forecast`). v7's own code is gone: the open day's blob layout,
/// read here, is written down below.
enum HistoryV7 {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: HistorySchema.dayTable + """
            INSERT INTO forecast_lead (city, made, lead_hours, target, issued, temperature, chance)
                SELECT city, target - lead_hours * 3600, lead_hours, target, issued, forecast, chance FROM verification WHERE true
            """ + RawRows.keepNearer + """
            ;
            INSERT INTO day (city, day, samples, temperature_min, temperature_max, temperature_sum, precipitation)
                SELECT city, day, samples, temperature_min, temperature_max, temperature_sum, precipitation + hour_precipitation FROM observed_day
                UNION ALL
                SELECT city, day, samples, temperature_min, temperature_max, temperature_sum, precipitation + hour_precipitation FROM open_day;
            """)
        for lead in DayFacts.leadHours {
            try db.execute(sql: """
                INSERT INTO day (city, day, pairs_\(lead), error_sum_\(lead), likely_\(lead), happened_\(lead))
                    SELECT city, date(day * 86400, 'unixepoch'), pairs, error_sum, likely, happened FROM check_day WHERE lead_hours = \(lead)
                ON CONFLICT (city, day) DO UPDATE SET pairs_\(lead) = excluded.pairs_\(lead), error_sum_\(lead) = excluded.error_sum_\(lead),
                    likely_\(lead) = excluded.likely_\(lead), happened_\(lead) = excluded.happened_\(lead)
                """)
        }
        for row in try Row.fetchAll(db, sql: "SELECT city, leads, pairs FROM open_day") {
            let city: String = row["city"]
            let leads: Data = row["leads"], pairs: Data = row["pairs"]
            for lead in openDayLeads([UInt8](leads)) + openDayPairs([UInt8](pairs)) { try RawRows.keepLead(lead, of: city, db) }
        }
        try db.execute(sql: """
            DROP TABLE open_day; DROP TABLE observed_day; DROP TABLE verification; DROP TABLE check_day; DROP TABLE forecast;
            """)
        for row in try Row.fetchAll(db, sql: "SELECT city, max(time) AS newest FROM observation GROUP BY city") {
            let newest: Int = row["newest"]
            for back in -1...31 {
                let time = newest - back * 86_400
                for day in Set([DayFacts.utcDay(time), try localDay(of: row["city"], near: time, db)].compactMap { $0 }) {
                    try StoredDay.recompute(day, of: row["city"], db)
                }
            }
        }
    }

    /// The city's local day at `time`, by its latest observation's zone.
    private static func localDay(of city: String, near time: Int, _ db: Database) throws -> String? {
        let zone = try String.fetchOne(db.cachedStatement(sql: "SELECT time_zone FROM observation WHERE city = :city ORDER BY time DESC LIMIT 1"),
                                       arguments: ["city": city]).flatMap(TimeZone.init(identifier:))
        return zone.map { LocalDay.key(for: Date(timeIntervalSince1970: TimeInterval(time)), in: $0) }
    }

    /// `open_day.leads`: a version byte (1), then records of the made hour (Int32, hours
    /// since 1970), the lead (UInt8), `issued - made` (Int16, seconds), the temperature
    /// (Float64) and the chance (Float32, NaN when not sent), little-endian.
    static func openDayLeads(_ blob: [UInt8]) -> [DayFacts.Lead] {
        records(blob, size: 19).map { r in
            let made = r.int32(0) * 3600
            return DayFacts.Lead(made: made, lead: Int(r.bytes[r.at + 4]), issued: made + r.int16(5), temperature: r.double(7), chance: r.float(15))
        }
    }

    /// `open_day.pairs`: records of the target hour (Int32), the lead (UInt8), `issued` less
    /// the made hour (Int16), the forecast (Float64), the chance (Float32), then the
    /// observation's offset, temperature and "precipitated" (11 bytes, not needed: v8
    /// pairs again from `observation`).
    static func openDayPairs(_ blob: [UInt8]) -> [DayFacts.Lead] {
        records(blob, size: 30).map { r in
            let lead = Int(r.bytes[r.at + 4]), made = r.int32(0) * 3600 - lead * 3600
            return DayFacts.Lead(made: made, lead: lead, issued: made + r.int16(5), temperature: r.double(7), chance: r.float(15))
        }
    }

    private struct Record {
        let bytes: [UInt8]
        let at: Int

        func unsigned(_ offset: Int, _ width: Int) -> UInt64 {
            (0..<width).reduce(0) { $0 | UInt64(bytes[at + offset + $1]) << (8 * $1) }
        }

        func int32(_ offset: Int) -> Int { Int(Int32(bitPattern: UInt32(unsigned(offset, 4)))) }
        func int16(_ offset: Int) -> Int { Int(Int16(bitPattern: UInt16(unsigned(offset, 2)))) }
        func double(_ offset: Int) -> Double { Double(bitPattern: unsigned(offset, 8)) }

        /// v7 read its Float32s back rounded to the thousandth; NaN was "not sent".
        func float(_ offset: Int) -> Double? {
            let value = Float(bitPattern: UInt32(unsigned(offset, 4)))
            return value.isNaN ? nil : (Double(value) * 1000).rounded() / 1000
        }
    }

    /// The records after the version byte; none when the blob is not version 1 of whole records.
    private static func records(_ blob: [UInt8], size: Int) -> [Record] {
        guard blob.first == 1, (blob.count - 1) % size == 0 else { return [] }
        return stride(from: 1, to: blob.count, by: size).map { Record(bytes: blob, at: $0) }
    }
}
