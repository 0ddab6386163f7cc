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

    /// Noon UTC of a `yyyy-MM-dd` day: a time that formats as that day in UTC. Counted
    /// out by hand for the usual key (a page with its history turns some 40 keys into
    /// dates, and `DateComponents` cost a fifth of its history sections); a month out of
    /// range goes to the calendar, which rolls it over as it does a day out of range.
    static func noon(_ key: String) -> Date? {
        guard let (year, month, day) = fields(key) else { return nil }
        guard (1...12).contains(month) else {
            return DateComponents(calendar: utcCalendar, year: year, month: month, day: day, hour: 12).date
        }
        return Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch(year, month, day) * 86_400 + 43_200))
    }

    /// The three numbers of `y-m-d` (digits only, none empty).
    private static func fields(_ key: String) -> (Int, Int, Int)? {
        var numbers = [0, 0, 0], index = 0, digits = 0
        for byte in key.utf8 {
            if byte == UInt8(ascii: "-") {
                guard digits > 0, index < 2 else { return nil }
                index += 1
                digits = 0
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 9 {
                numbers[index] = numbers[index] * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else {
                return nil
            }
        }
        guard index == 2, digits > 0 else { return nil }
        return (numbers[0], numbers[1], numbers[2])
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date, a day past its month's end
    /// counting on into the next (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
}

extension LocalDay {
    /// A `yyyy-MM-dd` day in `zone`, from its midnight to the next (23 or 25 hours on a
    /// day the clocks change).
    static func hours(of key: String, in zone: TimeZone) -> Range<Date>? {
        guard let noon = noon(key) else { return nil }
        func midnight(_ utcMidnight: Date) -> Date {
            utcMidnight.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: utcMidnight.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: utcMidnight))))))
        }
        return midnight(noon.addingTimeInterval(-43_200))..<midnight(noon.addingTimeInterval(43_200))
    }
}
