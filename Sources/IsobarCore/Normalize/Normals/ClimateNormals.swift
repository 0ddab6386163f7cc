import Foundation

/// A city's climate normals: for each calendar day, the 1991–2020 mean daily high and low
/// (°C), from the reanalysis archive (`NormalsAveraging`) or the site's own normals file
/// (`NormalsFile`). A day without a row has no normal, and nothing of it is shown.
public struct ClimateNormals: Sendable, Equatable {
    /// One calendar day's normal, °C.
    public struct Normal: Sendable, Equatable {
        public var high: Double
        public var low: Double

        public init(high: Double, low: Double) {
            self.high = high
            self.low = low
        }
    }

    /// Month 1…12 and day 1…31 (29 February included).
    public struct MonthDay: Sendable, Hashable, Comparable {
        public var month: Int
        public var day: Int

        public init(month: Int, day: Int) {
            self.month = month
            self.day = day
        }

        /// From a `yyyy-MM-dd` key (`LocalDay`, the archive's `daily.time`); nil for anything else.
        public init?(key: some StringProtocol) {
            let parts = key.split(separator: "-")
            guard parts.count == 3, parts[0].count == 4, let month = Int(parts[1]), let day = Int(parts[2]),
                Self.isCalendarDay(month: month, day: day) else { return nil }
            self.init(month: month, day: day)
        }

        public static func < (a: Self, b: Self) -> Bool { (a.month, a.day) < (b.month, b.day) }

        /// Whether the day exists in some year (29 February does, in leap years).
        public static func isCalendarDay(month: Int, day: Int) -> Bool {
            guard (1...12).contains(month), day >= 1 else { return false }
            return day <= [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        }

        public static let leapDay = MonthDay(month: 2, day: 29)
    }

    /// Where the normals come from, as the history stores it and a page could credit it
    /// ("open-meteo-era5 1991-2020", or the normals file's name).
    public let source: String
    public let days: [MonthDay: Normal]
    /// What of the normals shapes a page: part of the city's fingerprint (made once).
    let identity: String

    public init(source: String, days: [MonthDay: Normal]) {
        self.source = source
        self.days = days
        var digest = Fingerprint()
        digest.add(source)
        for key in days.keys.sorted() { digest.add("\(key.month)-\(key.day):\(days[key]!.high)/\(days[key]!.low)") }
        identity = digest.value
    }

    /// The normal of a `yyyy-MM-dd` local day; nil when there is none.
    public func normal(onDay key: String) -> Normal? {
        MonthDay(key: key).flatMap { days[$0] }
    }
}
