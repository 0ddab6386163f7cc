import Foundation

/// Dates and times in a city's own time zone and the site's language.
///
/// A page shows a hundred-odd times, and Foundation's `DateFormatter` is expensive to make
/// (profiling showed half of all build time in ICU formatter construction). So clock
/// times and machine-readable stamps are computed directly from the zone's UTC offset,
/// and the few localized names (weekdays, dates) come from formatters made once per
/// zone, language and pattern and shared by every page.
public struct LocalTimeFormatter: Sendable {
    public let zone: TimeZone
    public let locale: Locale
    let language: String

    public init(zone: TimeZone, language: String) {
        self.zone = zone
        self.language = language
        self.locale = Locale(identifier: language)
    }

    /// Wall-clock fields of `date` in the zone, by the proleptic Gregorian calendar.
    struct Fields {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int, offsetSeconds: Int
    }

    func fields(_ date: Date) -> Fields {
        let offset = zone.secondsFromGMT(for: date)
        let local = Int((date.timeIntervalSince1970).rounded(.down)) + offset
        let days = Int((Double(local) / 86_400).rounded(.down))
        let seconds = local - days * 86_400
        // Days since 1970-01-01 → civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Fields(year: year, month: month, day: day, hour: seconds / 3600, minute: (seconds % 3600) / 60, offsetSeconds: offset)
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// `14:20` — 24-hour clock, as weather services show it.
    public func time(_ date: Date) -> String {
        let f = fields(date)
        return "\(Self.twoDigits(f.hour)):\(Self.twoDigits(f.minute))"
    }

    /// The local hour, 0…23.
    public func hour(_ date: Date) -> Int { fields(date).hour }

    /// `yyyy-MM-dd`, the local calendar day.
    public func dayKey(_ date: Date) -> String {
        let f = fields(date)
        return "\(f.year)-\(Self.twoDigits(f.month))-\(Self.twoDigits(f.day))"
    }

    /// Machine-readable local time for `<time datetime>`: `2026-11-22T14:20+01:00`.
    public func iso8601(_ date: Date) -> String {
        let f = fields(date)
        let sign = f.offsetSeconds < 0 ? "-" : "+"
        let offset = abs(f.offsetSeconds) / 60
        return "\(f.year)-\(Self.twoDigits(f.month))-\(Self.twoDigits(f.day))T\(Self.twoDigits(f.hour)):\(Self.twoDigits(f.minute))"
            + "\(sign)\(Self.twoDigits(offset / 60)):\(Self.twoDigits(offset % 60))"
    }

    /// `Sun 22 Nov` (in the language's own order and words)
    public func dayAndDate(_ date: Date) -> String { SharedDateFormatters.string(date, zone: zone, language: language, template: "EEEdMMM") }
    /// `Sunday`
    public func weekday(_ date: Date) -> String { SharedDateFormatters.string(date, zone: zone, language: language, template: "EEEE") }
    /// `Sun`
    public func shortWeekday(_ date: Date) -> String { SharedDateFormatters.string(date, zone: zone, language: language, template: "EEE") }
    /// `22 Nov`
    public func shortDate(_ date: Date) -> String { SharedDateFormatters.string(date, zone: zone, language: language, template: "dMMM") }
}

/// Localized date formatters, made once per zone, language and pattern for the whole run.
enum SharedDateFormatters {
    private struct Key: Hashable {
        var zone: String, offset: Int, language: String, template: String
    }

    private nonisolated(unsafe) static var formatters: [Key: DateFormatter] = [:]
    private static let lock = NSLock()

    static func string(_ date: Date, zone: TimeZone, language: String, template: String) -> String {
        let key = Key(zone: zone.identifier, offset: zone.secondsFromGMT(), language: language, template: template)
        // DateFormatter is not safe to use from two threads at once: one lock for all.
        return lock.withLock {
            let formatter: DateFormatter
            if let cached = formatters[key] {
                formatter = cached
            } else {
                formatter = DateFormatter()
                formatter.locale = Locale(identifier: language)
                formatter.timeZone = zone
                formatter.setLocalizedDateFormatFromTemplate(template)
                formatters[key] = formatter
            }
            return formatter.string(from: date)
        }
    }
}
