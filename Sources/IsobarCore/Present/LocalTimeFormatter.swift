import Foundation

/// Dates and times in a city's own time zone and the site's language.
public struct LocalTimeFormatter: Sendable {
    public let zone: TimeZone
    public let locale: Locale

    public init(zone: TimeZone, language: String) {
        self.zone = zone
        self.locale = Locale(identifier: language)
    }

    private func format(_ date: Date, _ template: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = zone
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter.string(from: date)
    }

    /// A fixed pattern, whatever the language (clock times, machine-readable dates).
    private func fixed(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// `14:20` — 24-hour clock, as weather services show it.
    public func time(_ date: Date) -> String { fixed(date, "HH:mm") }

    /// `Sun 22 Nov`
    public func dayAndDate(_ date: Date) -> String { format(date, "EEEdMMM") }
    /// `Sunday`
    public func weekday(_ date: Date) -> String { format(date, "EEEE") }
    /// `Sun`
    public func shortWeekday(_ date: Date) -> String { format(date, "EEE") }
    /// `22 Nov`
    public func shortDate(_ date: Date) -> String { format(date, "dMMM") }

    /// Machine-readable local time for `<time datetime>`: `2026-11-22T14:20+01:00`.
    public func iso8601(_ date: Date) -> String { fixed(date, "yyyy-MM-dd'T'HH:mmxxxxx") }
}
