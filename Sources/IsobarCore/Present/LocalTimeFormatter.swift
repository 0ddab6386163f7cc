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
    /// The zone's offset around the page's reference time, and the span it holds for:
    /// asking the zone for every timestamp goes through ICU under a per-zone lock, which
    /// pages of cities in one zone, built in parallel, would otherwise queue on.
    private let offset: Int
    private let offsetValid: Range<Date>

    public init(zone: TimeZone, language: String, around reference: Date = Date(timeIntervalSince1970: 0)) {
        self.zone = zone
        self.language = language
        self.locale = Locale(identifier: language)
        offset = zone.secondsFromGMT(for: reference)
        let weekBefore = reference.addingTimeInterval(-7 * 86_400)
        let previous = zone.nextDaylightSavingTimeTransition(after: weekBefore).flatMap { $0 <= reference ? $0 : nil } ?? weekBefore
        let next = zone.nextDaylightSavingTimeTransition(after: reference) ?? reference.addingTimeInterval(30 * 86_400)
        offsetValid = previous..<max(next, reference.addingTimeInterval(1))
    }

    /// Wall-clock fields of `date` in the zone, by the proleptic Gregorian calendar.
    struct Fields {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetSeconds: Int, weekday: Int
        /// The local calendar day as days since 1970-01-01.
        var dayNumber: Int
    }

    func fields(_ date: Date) -> Fields {
        Self.fields(date, offset: offsetValid.contains(date) ? offset : zone.secondsFromGMT(for: date))
    }

    /// Total over every `Date`: decoded times are checked to lie in 1970…2100, but a date
    /// that is not (an edited manifest, `Date.distantFuture`) is clamped to ±300,000 years
    /// rather than trapped on.
    static func fields(_ date: Date, offset: Int) -> Fields {
        let since1970 = date.timeIntervalSince1970
        let clamped = since1970.isFinite ? min(max(since1970, -1e13), 1e13) : 0
        let local = Int(clamped.rounded(.down)) + offset
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
        // 1970-01-01 was a Thursday; 0 is Sunday.
        let weekday = ((days % 7) + 7 + 4) % 7
        return Fields(year: year, month: month, day: day, hour: seconds / 3600, minute: (seconds % 3600) / 60,
                      second: seconds % 60, offsetSeconds: offset, weekday: weekday, dayNumber: days)
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// `14:20` — 24-hour clock, as weather services show it.
    public func time(_ date: Date) -> String {
        let f = fields(date)
        return ClockText.make(5) { $0.two(f.hour); $0.byte(":"); $0.two(f.minute) }
    }

    /// The local hour, 0…23.
    public func hour(_ date: Date) -> Int { fields(date).hour }

    /// `yyyy-MM-dd`, the local calendar day.
    public func dayKey(_ date: Date) -> String { Self.dayKey(fields(date)) }

    static func dayKey(_ f: Fields) -> String {
        guard (1000...9999).contains(f.year) else { return "\(f.year)-\(Self.twoDigits(f.month))-\(Self.twoDigits(f.day))" }
        return ClockText.make(10) { $0.four(f.year); $0.byte("-"); $0.two(f.month); $0.byte("-"); $0.two(f.day) }
    }

    /// The local calendar day as a number (days since 1970-01-01), for telling days
    /// apart without building `dayKey`'s text.
    func dayNumber(_ date: Date) -> Int { fields(date).dayNumber }

    /// Machine-readable local time for `<time datetime>`: `2026-11-22T14:20+01:00`.
    public func iso8601(_ date: Date) -> String {
        let f = fields(date)
        let sign = f.offsetSeconds < 0 ? "-" : "+"
        let offset = abs(f.offsetSeconds) / 60
        guard (1000...9999).contains(f.year), offset < 100 * 60 else {
            return "\(f.year)-\(Self.twoDigits(f.month))-\(Self.twoDigits(f.day))T\(Self.twoDigits(f.hour)):\(Self.twoDigits(f.minute))"
                + "\(sign)\(Self.twoDigits(offset / 60)):\(Self.twoDigits(offset % 60))"
        }
        return ClockText.make(22) {
            $0.four(f.year); $0.byte("-"); $0.two(f.month); $0.byte("-"); $0.two(f.day); $0.byte("T")
            $0.two(f.hour); $0.byte(":"); $0.two(f.minute); $0.byte(sign == "-" ? "-" : "+"); $0.two(offset / 60); $0.byte(":"); $0.two(offset % 60)
        }
    }

    private func localized(_ date: Date, _ template: String) -> String {
        DatePatterns.shared(language: language, template: template).format(fields(date))
    }

    /// `Sun 22 Nov` (in the language's own order and words)
    public func dayAndDate(_ date: Date) -> String { localized(date, "EEEdMMM") }
    /// `Sun`
    public func shortWeekday(_ date: Date) -> String { localized(date, "EEE") }
    /// `22 Nov`
    public func shortDate(_ date: Date) -> String { localized(date, "dMMM") }
    /// `22 November`
    public func dayAndMonth(_ date: Date) -> String { localized(date, "dMMMM") }
    /// `November`
    public func month(_ date: Date) -> String { localized(date, "LLLL") }
    /// `22 November 2026`
    public func longDate(_ date: Date) -> String { localized(date, "dMMMMy") }
}

/// Fixed-width clock text written straight into a new string's storage: a page formats a
/// few hundred times and dates, and interpolation assembled each from temporary strings.
/// Callers pass values that fit their width (two digits 0…99, four digits 1000…9999).
struct ClockText {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var index = 0

    static func make(_ count: Int, _ write: (inout ClockText) -> Void) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            var text = ClockText(buffer: buffer)
            write(&text)
            precondition(text.index == count, "ClockText wrote \(text.index) of \(count) bytes")
            return count
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func byte(_ character: Unicode.Scalar) {
        buffer[index] = UInt8(character.value)
        index += 1
    }

    mutating func two(_ value: Int) {
        buffer[index] = UInt8(ascii: "0") + UInt8(value / 10)
        buffer[index + 1] = UInt8(ascii: "0") + UInt8(value % 10)
        index += 2
    }

    mutating func four(_ value: Int) {
        two(value / 100)
        two(value % 100)
    }
}

/// A language's date pattern for a template ("EEEdMMM" → "EEE, MMM d" in English,
/// "EEE, d. MMM" in German) and its day and month names, taken from ICU once per run and
/// then applied without a formatter, so building pages in parallel never waits on one.
struct DatePatterns: Sendable {
    enum Piece: Sendable {
        case literal(String)
        case weekdayShort, weekdayLong, day, dayPadded, monthShort, monthLong, monthStandalone, monthNumber, monthNumberPadded, year
    }

    let pieces: [Piece]
    let weekdaysShort: [String], weekdaysLong: [String], monthsShort: [String], monthsLong: [String], monthsStandalone: [String]

    private struct Key: Hashable { var language: String, template: String }
    private static let all = Memo<Key, DatePatterns>()

    static func shared(language: String, template: String) -> DatePatterns {
        all.value(Key(language: language, template: template)) { DatePatterns(language: $0.language, template: $0.template) }
    }

    init(language: String, template: String) {
        let locale = Locale(identifier: language)
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = Calendar(identifier: .gregorian)
        // Format-context names ("Nov"), which is what these patterns display.
        weekdaysShort = formatter.shortWeekdaySymbols
        weekdaysLong = formatter.weekdaySymbols
        monthsShort = formatter.shortMonthSymbols
        monthsLong = formatter.monthSymbols
        monthsStandalone = formatter.standaloneMonthSymbols
        let pattern = DateFormatter.dateFormat(fromTemplate: template, options: 0, locale: locale) ?? template
        pieces = Self.parse(pattern)
    }

    /// ICU pattern letters this needs; anything quoted or unknown is kept as text.
    static func parse(_ pattern: String) -> [Piece] {
        var pieces: [Piece] = []
        var literal = ""
        var characters = Array(pattern)[...]
        func flush() { if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" } }
        while let c = characters.first {
            if c == "'" {
                characters.removeFirst()
                if characters.first == "'" { literal.append("'"); characters.removeFirst(); continue }
                while let q = characters.first, q != "'" { literal.append(q); characters.removeFirst() }
                characters.removeFirst(min(1, characters.count))
                continue
            }
            guard c.isLetter else { literal.append(c); characters.removeFirst(); continue }
            var run = 0
            while characters.first == c { run += 1; characters.removeFirst() }
            flush()
            switch (c, run) {
            case ("E", 1...3), ("c", 1...3), ("e", 3): pieces.append(.weekdayShort)
            case ("E", _), ("c", _), ("e", _): pieces.append(.weekdayLong)
            case ("d", 1): pieces.append(.day)
            case ("d", _): pieces.append(.dayPadded)
            case ("M", 1), ("L", 1): pieces.append(.monthNumber)
            case ("M", 2), ("L", 2): pieces.append(.monthNumberPadded)
            case ("M", 3), ("L", 3): pieces.append(.monthShort)
            case ("M", _): pieces.append(.monthLong)
            // "LLLL" is the month on its own ("ноябрь"), "MMMM" the month of a date ("21 ноября").
            case ("L", _): pieces.append(.monthStandalone)
            case ("y", _): pieces.append(.year)
            default: literal.append(String(repeating: c, count: run))
            }
        }
        flush()
        return pieces
    }

    func format(_ f: LocalTimeFormatter.Fields) -> String {
        var text = ""
        for piece in pieces {
            switch piece {
            case .literal(let string): text += string
            case .weekdayShort: text += weekdaysShort[f.weekday]
            case .weekdayLong: text += weekdaysLong[f.weekday]
            case .day: text += String(f.day)
            case .dayPadded: text += LocalTimeFormatter.twoDigits(f.day)
            case .monthShort: text += monthsShort[f.month - 1]
            case .monthLong: text += monthsLong[f.month - 1]
            case .monthStandalone: text += monthsStandalone[f.month - 1]
            case .monthNumber: text += String(f.month)
            case .monthNumberPadded: text += LocalTimeFormatter.twoDigits(f.month)
            case .year: text += String(f.year)
            }
        }
        return text
    }
}
