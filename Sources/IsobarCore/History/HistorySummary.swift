import Foundation

/// What a city's page says about its past, in canonical units: made from the `CityPast`
/// the store read and this run's observation, by rules alone (no database), so that every
/// figure can be checked by hand. Nothing is shown that the history cannot back: a part
/// without enough data is nil.
public struct HistorySummary: Sendable, Equatable, Codable {
    /// A past day of the week shown on the page; nil values when nothing was observed
    /// that day (a gap, shown as one).
    public struct PastDay: Sendable, Equatable, Codable {
        public var day: String
        public var observed: ObservedDay?
    }

    public struct Extreme: Sendable, Equatable, Codable {
        public var value: Double
        /// The first day it was reached.
        public var day: String
    }

    /// The warmest high and coldest low over a set of days (a calendar day in every year,
    /// or a month in every year), today so far included.
    public struct Records: Sendable, Equatable, Codable {
        public var warmest: Extreme
        public var coldest: Extreme
        /// Days the records are taken from.
        public var days: Int
    }

    public enum NewRecord: String, Sendable, Equatable, Codable {
        case warmestOnDate, coldestOnDate, warmestInMonth, coldestInMonth
    }

    public struct Yesterday: Sendable, Equatable, Codable {
        public var time: Date
        public var temperature: Double
        /// Now minus then, °C.
        public var difference: Double
    }

    /// The 7 local days before today, oldest first.
    public var pastWeek: [PastDay]
    /// Today until now, this run's observation included.
    public var today: ObservedDay
    /// The first day in the history.
    public var since: String
    public var onThisDate: Records
    public var inThisMonth: Records
    /// Records today breaks (so far): only against earlier years' same date, or against at
    /// least `minimumMonthDays` earlier days of the month.
    public var newRecords: [NewRecord]
    public var yesterday: Yesterday?
    /// The forecast checks with enough data (`minimumPairs` pairs over `minimumDays`
    /// days); the rain figure of each only counts with `minimumLikelyRain` hours.
    public var forecastChecks: [ForecastCheck]

    static let minimumMonthDays = 7
    /// What the checks' figures mean, for the page to say so: the UTC days they cover
    /// (today's included), and the chance from which a forecast counts as one of rain.
    /// Present reads the history's rules here, from the value the history hands it.
    public static let checkPeriodDays = DayFacts.checkDays
    public static let likelyRainChance = DayFacts.likelyChance
    static let minimumPairs = 24, minimumDays = 3, minimumLikelyRain = 5

    public init(past: CityPast, current: CurrentConditions, today day: String) {
        let monthPrefix = String(day.dropFirst(5).prefix(2))
        let dateSuffix = String(day.dropFirst(5))
        let previous = past.today
        let samples = (previous?.samples ?? 0) + 1
        let amount = (current.rainLastHour ?? 0) + (current.snowLastHour ?? 0)
        today = ObservedDay(
            day: day, low: min(previous?.low ?? current.temperature, current.temperature),
            high: max(previous?.high ?? current.temperature, current.temperature),
            mean: ((previous?.mean ?? 0) * Double(samples - 1) + current.temperature) / Double(samples),
            precipitation: (previous?.precipitation ?? 0) + max(past.currentHourPrecipitation, amount), samples: samples)
        let byDay = Dictionary(past.days.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        pastWeek = (1...7).reversed().map { back in
            let key = LocalDay.key(day, plus: -back)
            return PastDay(day: key, observed: byDay[key])
        }
        since = min(past.firstDay ?? day, day)

        let sameDate = past.days.filter { $0.day.dropFirst(5) == dateSuffix }
        let sameMonth = past.days.filter { $0.day.dropFirst(5).prefix(2) == monthPrefix }
        onThisDate = Self.records(sameDate + [today])
        inThisMonth = Self.records(sameMonth + [today])
        var broken: [NewRecord] = []
        if !sameDate.isEmpty {
            if today.high > sameDate.map(\.high).max()! { broken.append(.warmestOnDate) }
            if today.low < sameDate.map(\.low).min()! { broken.append(.coldestOnDate) }
        }
        if sameMonth.count >= Self.minimumMonthDays {
            if today.high > sameMonth.map(\.high).max()! { broken.append(.warmestInMonth) }
            if today.low < sameMonth.map(\.low).min()! { broken.append(.coldestInMonth) }
        }
        newRecords = broken
        yesterday = past.yesterday.map {
            Yesterday(time: $0.time, temperature: $0.temperature, difference: current.temperature - $0.temperature)
        }
        forecastChecks = past.checks.filter { $0.pairs >= Self.minimumPairs && $0.days >= Self.minimumDays }
    }

    /// The first day to reach the highest high and the lowest low.
    private static func records(_ days: [ObservedDay]) -> Records {
        var warmest = Extreme(value: days[0].high, day: days[0].day), coldest = Extreme(value: days[0].low, day: days[0].day)
        for day in days.dropFirst() {
            if day.high > warmest.value { warmest = Extreme(value: day.high, day: day.day) }
            if day.low < coldest.value { coldest = Extreme(value: day.low, day: day.day) }
        }
        return Records(warmest: warmest, coldest: coldest, days: days.count)
    }
}
