import Foundation

/// Calendar days in a city's own time zone, keyed `yyyy-MM-dd`.
enum LocalDay {
    static func key(for date: Date, in zone: TimeZone) -> String {
        LocalTimeFormatter.dayKey(LocalTimeFormatter.fields(date, offset: zone.secondsFromGMT(for: date)))
    }
}

extension LocalDay {
    /// The day `days` after (or before) a `yyyy-MM-dd` key: calendar arithmetic, so a day
    /// that was 23 or 25 hours long locally is still one day.
    static func key(_ key: String, plus days: Int) -> String {
        guard let date = noon(key) else { return key }
        return Self.key(for: date.addingTimeInterval(TimeInterval(days) * 86_400), in: utcCalendar.timeZone)
    }

    /// Noon UTC of a `yyyy-MM-dd` day: a time that formats as that day in UTC.
    static func noon(_ key: String) -> Date? {
        let parts = key.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return DateComponents(calendar: utcCalendar, year: parts[0], month: parts[1], day: parts[2], hour: 12).date
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
}
