extension CityPageModel {
    /// The city's past as the page shows it (`HistorySummary`, formatted): each part is
    /// absent when the history cannot back it, and the whole is absent with no history.
    public struct History: Sendable {
        public struct PastDay: Sendable {
            public var weekday: String
            public var date: String
            /// `yyyy-MM-dd`, for `<time datetime>`.
            public var datetime: String
            /// Absent on a day nothing was observed: a gap.
            public var high: Quantity?
            public var low: Quantity?
            public var precipitation: Quantity?
        }

        public struct Extreme: Sendable {
            public var temperature: Quantity
            public var date: String
            public var datetime: String
        }

        public struct Records: Sendable {
            /// "23 November" or "November".
            public var period: String
            public var warmest: Extreme
            public var coldest: Extreme
        }

        public struct Check: Sendable {
            /// "24 hours ahead".
            public var ahead: String
            public var hours: Int
            /// Mean absolute error of the temperature.
            public var error: Quantity
            public var forecasts: Int
            /// "24 hours ahead: off by 1° on average, over 72 forecasts".
            public var text: String
        }

        public var pastWeek: [PastDay]
        public var hasPastWeek: Bool
        /// Inline SVG of the week's highs and lows, gaps left open (insert with {{{…}}}).
        public var pastWeekChart: RenderedHTML
        /// The chart in words, for those who cannot see it.
        public var pastWeekSummary: String
        /// "1 March 2026": the first day in the history.
        public var since: String
        public var sinceDateTime: String
        /// This date in every year; only once an earlier year has it.
        public var onThisDate: Records?
        /// This month in every year; only once an earlier day of it is recorded.
        public var inThisMonth: Records?
        public var hasRecords: Bool
        /// Sentences for the records today breaks.
        public var newRecords: [String]
        /// "3° warmer than yesterday at this time".
        public var comparedWithYesterday: String?
        /// Now minus yesterday at this time, signed in `comparedWithYesterday`'s words.
        public var yesterdayDifference: Quantity?
        public var checks: [Check]
        public var hasChecks: Bool
        /// "Rain forecast at 50 % or more fell 9 times out of 18 (50 %)."
        public var rainCheck: String?
        /// "Temperature forecasts of the last 30 days, against what was then observed:".
        public var checkIntro: String
    }
}
