import Foundation

/// Calendar days in a city's own time zone, keyed `yyyy-MM-dd`.
enum LocalDay {
    static func key(for date: Date, in zone: TimeZone) -> String {
        LocalTimeFormatter.dayKey(LocalTimeFormatter.fields(date, offset: zone.secondsFromGMT(for: date)))
    }
}
