import Foundation
import GRDB

/// A v7 file (what releases wrote) brought to v8: the forecast hours its checks paired
/// (`verification`) and those its open days held (`open_day`'s blobs) go back into
/// `forecast_lead`; its daily summaries (`observed_day`, the open day's) and per-UTC-day
/// checks (`check_day`) are copied into `day`, whose dates the raw rows hold are then recomputed
/// from them (never below what was copied: retention had thinned those out); then the
/// tables v8 derives or never read go (`open_day`, `observed_day`, `verification` and its
/// triggers, `check_day`, `forecast`). v7's own code is gone: the open day's blob layout is
/// written down at `leads`.
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
            for lead in Self.leads([UInt8](leads), recordSize: 19, hourIsTarget: false)
                + Self.leads([UInt8](pairs), recordSize: 30, hourIsTarget: true) {
                try RawRows.keepLead(lead, of: city, db)
            }
        }
        try db.execute(sql: """
            DROP TABLE open_day; DROP TABLE observed_day; DROP TABLE verification; DROP TABLE check_day; DROP TABLE forecast;
            """)
        // Every date the raw rows hold: its local days and its checks' UTC days. (v7 gave
        // every observation its day; a row without one has no day to recompute.)
        for row in try Row.fetchAll(db, sql: """
            SELECT city, day FROM observation WHERE day IS NOT NULL UNION SELECT city, date(target, 'unixepoch') FROM forecast_lead
            """) {
            try StoredDay.recompute(row["day"], of: row["city"], db)
        }
    }

    /// v7's open-day blobs (the layout `OpenDay` wrote): a version byte (1), then records,
    /// little-endian, that begin with an hour (Int32, hours since 1970: the made hour in
    /// `leads`, the target in `pairs`), the lead (UInt8), `issued` less the made hour
    /// (Int16, seconds), the forecast temperature (Float64) and chance (Float32, NaN when
    /// not sent; v7 read it back to the thousandth). A lead's record is 19 bytes; a pair's
    /// 30, its observation after (v8 pairs again, from `observation`).
    static func leads(_ blob: [UInt8], recordSize: Int, hourIsTarget: Bool) -> [DayFacts.Lead] {
        guard blob.first == 1, (blob.count - 1) % recordSize == 0 else { return [] }
        return stride(from: 1, to: blob.count, by: recordSize).map { at in
            func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
                blob.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: at + offset, as: T.self)) }
            }
            let lead = Int(blob[at + 4]), hour = Int(load(0, Int32.self)) * 3600
            let made = hourIsTarget ? hour - lead * 3600 : hour
            let chance = Float(bitPattern: load(15, UInt32.self))
            return DayFacts.Lead(made: made, lead: lead, issued: made + Int(load(5, Int16.self)), temperature: Double(bitPattern: load(7, UInt64.self)),
                                 chance: chance.isNaN ? nil : (Double(chance) * 1000).rounded() / 1000)
        }
    }
}
