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
///   rest keep their cached data and are `deferred` to a later run. A deferred city with no
///   data at all waits for its turn: not a failure, the budget's pace.
/// - A new site's very first run (no run before it, nothing cached, nothing published) may
///   fetch its first city ahead of the pace, within the limits, so that its owner sees a
///   page at once; the calls count against the runs after it, so no limit is exceeded.
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
    /// Deferred cities with no data at all: they wait for their first.
    public var withoutData: Set<String> = []
    /// The first deferred city: the next one the pace lets in.
    public var firstWaiting: Candidate?
    /// The calls the pace allowed this run (or a new site's first city's, when more), and
    /// the calls the chosen cities need.
    public var allowance: Int
    public var plannedCalls = 0

    /// What the run does for a city.
    public enum Decision: Sendable, Equatable {
        case fetch
        /// Built from its cached data; `deferred` when it was due but the budget said wait.
        case cached(deferred: Bool)
        /// Due for its first data, which the budget does not allow yet: nothing to build from.
        case waiting
    }

    public func decision(for slug: String) -> Decision {
        if refresh.contains(slug) { return .fetch }
        if withoutData.contains(slug) { return .waiting }
        return .cached(deferred: deferredSet.contains(slug))
    }

    /// The first city a run left waiting, and when the budget's pace allows its calls.
    public struct NextFetch: Sendable, Equatable {
        public var slug: String
        public var calls: Int
        /// Nil when a limit is smaller than `calls`: the pace never allows them.
        public var at: Date?
    }

    /// When the first waiting city can be fetched, from the budget's state after the run
    /// (its calls counted), if nothing else is sent before; rounded up to the minute, as
    /// people are told it (the pace allows nothing earlier).
    public func nextFetch(limits: CallLimits, after state: CallBudget.State) -> NextFetch? {
        firstWaiting.map { city in
            let at = PaceLine.time(allowing: city.calls, limits: limits, state: state)
            return NextFetch(slug: city.slug, calls: city.calls,
                             at: at.map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 / 60).rounded(.up) * 60) })
        }
    }

    public static let defaultInterval: TimeInterval = 15 * 60
    static let intervalRange: ClosedRange<TimeInterval> = 60...3600

    /// `sitePublished`: the output holds pages of an earlier run, so the site is not new.
    public static func make(_ candidates: [Candidate], limits: CallLimits, state: CallBudget.State, sitePublished: Bool) -> RefreshPlan {
        let due = candidates.enumerated().filter { $0.element.calls > 0 }
            .sorted { ($0.element.fetchedAt ?? .distantPast, $0.offset) < ($1.element.fetchedAt ?? .distantPast, $1.offset) }
            .map(\.element)
        let (paced, hard) = allowance(limits: limits, state: state)
        var plan = RefreshPlan(allowance: paced)
        // A new site's first run: with a small limit the pace may allow no city for an hour,
        // and its owner would see nothing. One city's calls ahead of the pace are paid back
        // by the next runs (they count as made today); the limits themselves still hold.
        let newSite = state.previousRun == nil && !sitePublished && candidates.allSatisfy { $0.fetchedAt == nil }
        if newSite, let first = due.first, first.calls <= hard {
            plan.allowance = max(paced, first.calls)
        }
        var left = min(plan.allowance, hard)
        var holding = false
        for city in due {
            // Strictly oldest first: once a city must wait, a cheaper one behind it waits too.
            if !holding && city.calls <= left {
                plan.refresh.insert(city.slug)
                plan.plannedCalls = plan.plannedCalls.saturatingAdd(city.calls)
                left -= city.calls
            } else {
                holding = true
                plan.deferred.append(city.slug)
                if city.fetchedAt == nil { plan.withoutData.insert(city.slug) }
                if plan.firstWaiting == nil { plan.firstWaiting = city }
            }
        }
        return plan
    }

    /// The calls the pace allows this run, and the calls the limits allow at all.
    static func allowance(limits: CallLimits, state: CallBudget.State) -> (paced: Int, hard: Int) {
        let interval = state.previousRun.map { state.now.timeIntervalSince($0) }
            .map { min(intervalRange.upperBound, max(intervalRange.lowerBound, $0)) } ?? defaultInterval
        let lines = PaceLine.lines(limits, state)
        // The share of each period's limit due by the end of this run's interval.
        guard let paced = lines.map({ $0.allowed(by: state.now.addingTimeInterval(interval)) }).min(),
            let hard = lines.map({ $0.limit.saturatingSubtract($0.used) }).min()
        else { return (Int.max, Int.max) }
        return (max(0, Int(saturating: paced, rounding: .down)), max(0, hard))
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
