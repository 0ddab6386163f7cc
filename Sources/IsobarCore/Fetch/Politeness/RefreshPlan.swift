import Foundation

/// Which due cities a run refreshes when a call budget is set, and which wait.
///
/// The rule (README, "A call budget"):
/// - A city is due when its data is older than its `refresh:` (or `cache.max_age`).
/// - Due cities go oldest data first; a city with no data at all goes first of all (a new
///   site's cities, too, come in at the pace: a first run of 2,000 cities does not spend
///   the day's calls at once).
/// - A run may spend the day's limit pro rata over the rest of the day, up to the end of
///   the interval since the previous run: `daily_limit × (time since the day's first run
///   + interval) / (time from the day's first run to 24:00 UTC)`, minus the calls already
///   made today (the same for the month). So the budget is spread evenly over what is left
///   of the day when Isobar starts (a site started at 22:45 spreads the day's calls over 75
///   minutes, not all at 22:45), whatever the cron interval, and what a quiet run leaves
///   is spent by the next. The interval is the time since the previous run, between 1 min
///   and 1 h (15 min when there was none).
/// - Cities are refreshed while their calls fit in that allowance, strictly in order; the
///   rest keep their cached data and are `deferred` to a later run.
public struct RefreshPlan: Sendable, Equatable {
    public struct Candidate: Sendable, Equatable {
        public var slug: String
        /// When its data was fetched; nil when it has none.
        public var fetchedAt: Date?
        /// The requests a refresh would send now; 0 when it is not due.
        public var calls: Int

        public init(slug: String, fetchedAt: Date?, calls: Int) {
            self.slug = slug
            self.fetchedAt = fetchedAt
            self.calls = calls
        }
    }

    /// Slugs of the cities this run fetches.
    public var refresh: Set<String> = []
    /// Due cities that keep their cached data this run, oldest data first.
    public var deferred: [String] = [] {
        didSet { deferredSet = Set(deferred) }
    }
    private var deferredSet: Set<String> = []
    /// The calls the pace allowed this run, and the calls the chosen cities need.
    public var allowance: Int
    public var plannedCalls = 0

    /// What the run does for a city.
    public enum Decision: Sendable, Equatable {
        case fetch
        /// Built from its cached data; `deferred` when it was due but the budget said wait.
        case cached(deferred: Bool)
    }

    public func decision(for slug: String) -> Decision {
        if refresh.contains(slug) { return .fetch }
        return .cached(deferred: deferredSet.contains(slug))
    }

    public static let defaultInterval: TimeInterval = 15 * 60
    static let intervalRange: ClosedRange<TimeInterval> = 60...3600

    public static func make(_ candidates: [Candidate], limits: CallLimits, state: CallBudget.State) -> RefreshPlan {
        let due = candidates.enumerated().filter { $0.element.calls > 0 }
            .sorted { ($0.element.fetchedAt ?? .distantPast, $0.offset) < ($1.element.fetchedAt ?? .distantPast, $1.offset) }
            .map(\.element)
        let (paced, hard) = allowance(limits: limits, state: state)
        var plan = RefreshPlan(allowance: paced)
        var left = min(paced, hard)
        var waiting = false
        for city in due {
            // Strictly oldest first: once a city must wait, a cheaper one behind it waits too.
            if !waiting && city.calls <= left {
                plan.refresh.insert(city.slug)
                plan.plannedCalls += city.calls
                left -= city.calls
            } else {
                waiting = true
                plan.deferred.append(city.slug)
            }
        }
        return plan
    }

    /// The calls the pace allows this run, and the calls the limits allow at all.
    static func allowance(limits: CallLimits, state: CallBudget.State) -> (paced: Int, hard: Int) {
        let period = CallPeriod(state.now)
        let interval = state.previousRun.map { state.now.timeIntervalSince($0) }
            .map { min(intervalRange.upperBound, max(intervalRange.lowerBound, $0)) } ?? defaultInterval
        var paced = Double(Int.max), hard = Int.max
        /// The share of a period's limit due by the end of this run's interval.
        func share(from first: Date?, start: Date, end: Date) -> Double {
            let anchor = min(state.now, max(start, first ?? start))
            let span = end.timeIntervalSince(anchor)
            return span <= 0 ? 1 : min(1, (state.now.timeIntervalSince(anchor) + interval) / span)
        }
        if let daily = limits.daily {
            let dayShare = share(from: state.dayFirstRun, start: period.dayStart, end: period.dayStart.addingTimeInterval(CallPeriod.daySeconds))
            paced = min(paced, Double(daily) * dayShare - Double(state.dayCalls))
            hard = min(hard, daily - state.dayCalls)
        }
        if let monthly = limits.monthly {
            let monthShare = share(from: state.monthFirstRun, start: period.monthStart, end: period.monthEnd)
            paced = min(paced, Double(monthly) * monthShare - Double(state.monthCalls))
            hard = min(hard, monthly - state.monthCalls)
        }
        return (paced >= Double(Int.max) ? Int.max : max(0, Int(paced.rounded(.down))), max(0, hard))
    }

    /// How often each city is refreshed on average when the budget allows `callsPerDay`
    /// and each city needs `calls` per refresh at most every `refresh` seconds: the
    /// interval T at which Σ calls × 1 day / max(refresh, T) fits the budget. Nil when
    /// every city can be refreshed as often as it asks.
    public static func refreshInterval(_ cities: [(calls: Int, refresh: TimeInterval)], callsPerDay: Double) -> TimeInterval? {
        func needed(_ interval: TimeInterval) -> Double {
            cities.reduce(0) { $0 + Double($1.calls) * CallPeriod.daySeconds / max($1.refresh, interval, 1) }
        }
        guard needed(0) > callsPerDay else { return nil }
        guard callsPerDay > 0 else { return .infinity }
        var low: TimeInterval = 0, high: TimeInterval = 400 * CallPeriod.daySeconds
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if needed(middle) > callsPerDay { low = middle } else { high = middle }
        }
        return high
    }
}
