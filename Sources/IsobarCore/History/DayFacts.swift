import Foundation

/// The history's rules, each written once and only here: which forecast hours the checks
/// keep, how a day's observations add up, when it "precipitated", how a forecast is paired
/// with an observation, its error and when rain counts as "likely". The store's SQL only
/// stores and selects (plus `forecast_lead`'s keep-the-nearer upsert and retention's
/// deletes); recording a batch, the v7 migration and a page's reading of today all call
/// these functions over raw rows (`observation`, `forecast_lead`).
enum DayFacts {
    /// How far ahead the checked forecasts were made, hours: the site's policy
    /// (`HistorySettings.checkLeadHours`). The `day` table has a set of columns per lead
    /// (`HistorySchema.dayTable`).
    static let leadHours = HistorySettings.checkLeadHours
    /// How far from `target - lead` a run's data time may be for its hour to be kept for
    /// the checks, and how far from the target an observation may be to be paired with it
    /// ([target - 1800, target + 1800)), seconds.
    static let tolerance = 1800
    /// The chance from which a forecast counts as one of rain (the page says it, too).
    static let likelyChance = 0.5
    /// Errors are summed as integers, in millionths of a degree: a day's sum then does not
    /// depend on the order its pairs were added in.
    static let errorUnit = 1_000_000.0
    /// How far back the forecast checks look: UTC days of their target, today's included.
    static let checkDays = 30

    /// An observation as the rules read it (a row of `observation`).
    struct Observation: Sendable, Equatable {
        var time: Int
        /// The city's local day it counts towards.
        var day: String
        var temperature: Double
        var rain: Double?
        var snow: Double?
        var condition: Int?

        /// Rain and snow of the last hour (mm of water); an API leaves them out when none
        /// fell, so absent is 0.
        var precipitation: Double { (rain ?? 0) + (snow ?? 0) }

        /// Precipitation was falling or had fallen in the last hour: an amount, or a
        /// thunderstorm, drizzle, rain or snow condition (2xx–6xx) where the amount is missing.
        var precipitated: Bool { precipitation > 0 || (200..<700).contains(condition ?? 0) }
    }

    /// A forecast hour kept for the checks (a row of `forecast_lead`): made `lead` hours
    /// before its target, the whole hour `made + lead` hours, by the run of data time `issued`.
    struct Lead: Sendable, Equatable {
        var made: Int
        var lead: Int
        var issued: Int
        var temperature: Double
        var chance: Double?

        var target: Int { made + lead * 3600 }
    }

    /// The hours of a run's forecast that a check can pair: a whole hour made `leadHours`
    /// ahead of the run's data time, within `tolerance`. Of several runs that qualify for
    /// one hour, `forecast_lead`'s upsert keeps the one nearest `made`.
    static func leads(of hours: [HourlyForecast], issued: Int) -> [Lead] {
        var kept: [Lead] = []
        for hour in hours {
            let target = Int(hour.time.timeIntervalSince1970)
            guard target % 3600 == 0 else { continue }
            for lead in leadHours where abs(target - lead * 3600 - issued) <= tolerance {
                kept.append(Lead(made: target - lead * 3600, lead: lead, issued: issued, temperature: hour.temperature,
                                 chance: hour.precipitationChance))
            }
        }
        return kept
    }

    /// A local day's observations added up in time order: low, high, the temperatures'
    /// sum and count, and precipitation. Observations report the last hour's amount however
    /// often they come, so each clock hour counts once, at the largest amount reported in
    /// it: `precipitation` is the finished hours' sum, `hourPrecipitation` the amount of
    /// the latest hour (`hour`, hours since 1970) so far.
    struct Tally: Sendable, Equatable {
        var low = Double.infinity
        var high = -Double.infinity
        var sum = 0.0
        var samples = 0
        var precipitation = 0.0
        var hour = Int.min
        var hourPrecipitation = 0.0

        mutating func add(_ observation: Observation) {
            let t = observation.temperature
            (low, high, sum, samples) = (min(low, t), max(high, t), sum + t, samples + 1)
            if observation.time / 3600 == hour {
                hourPrecipitation = max(hourPrecipitation, observation.precipitation)
            } else {
                (precipitation, hourPrecipitation, hour) = (precipitation + hourPrecipitation, observation.precipitation, observation.time / 3600)
            }
        }

        /// The day with its latest hour counted; nil when nothing was observed.
        func observed(_ day: String) -> ObservedDay? {
            guard samples > 0 else { return nil }
            return ObservedDay(day: day, low: low, high: high, mean: sum / Double(samples), precipitation: precipitation + hourPrecipitation,
                               samples: samples)
        }
    }

    /// The tally of `observations` (in time order).
    static func tally(_ observations: some Sequence<Observation>) -> Tally {
        var tally = Tally()
        for observation in observations { tally.add(observation) }
        return tally
    }

    /// Checks summed: pairs, their absolute errors (millionths of a degree), forecasts of
    /// likely rain and how many of those had precipitation observed.
    struct Totals: Sendable, Equatable {
        var pairs = 0
        var errorSum = 0
        var likely = 0
        var happened = 0

        static func += (a: inout Totals, b: Totals) {
            (a.pairs, a.errorSum, a.likely, a.happened) = (a.pairs + b.pairs, a.errorSum + b.errorSum, a.likely + b.likely, a.happened + b.happened)
        }
    }

    /// The check of one forecast hour: paired with the observation nearest its target in
    /// [target − tolerance, target + tolerance), the earlier on a tie; nil when none is
    /// there. `observations` are in time order.
    static func check(_ lead: Lead, against observations: [Observation]) -> Totals? {
        guard let observed = nearest(lead.target, in: observations, within: lead.target - tolerance..<lead.target + tolerance) else { return nil }
        let likely = (lead.chance ?? 0) >= likelyChance
        return Totals(pairs: 1, errorSum: Int((abs(lead.temperature - observed.temperature) * errorUnit).rounded()),
                      likely: likely ? 1 : 0, happened: likely && observed.precipitated ? 1 : 0)
    }

    /// The observation in `window` nearest `time`, the earlier on a tie.
    static func nearest(_ time: Int, in observations: [Observation], within window: Range<Int>) -> Observation? {
        observations.lazy.filter { window.contains($0.time) }.min { abs($0.time - time) < abs($1.time - time) }
    }

    /// The checks of `leads` per lead hours.
    static func checks(_ leads: [Lead], against observations: [Observation]) -> [Int: Totals] {
        var totals: [Int: Totals] = [:]
        for lead in leads {
            guard let pair = check(lead, against: observations) else { continue }
            totals[lead.lead, default: Totals()] += pair
        }
        return totals
    }

    /// The UTC day (`yyyy-MM-dd`) of a time: the day the checks of a target count on.
    static func utcDay(_ time: Int) -> String {
        LocalDay.key(for: Date(timeIntervalSince1970: TimeInterval(time)), in: utc)
    }

    /// Midnight UTC starting a `yyyy-MM-dd` day, Unix seconds.
    static func start(of day: String) -> Int {
        Int((LocalDay.noon(day) ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970) - 43_200
    }

    private static let utc = TimeZone(identifier: "UTC")!
}
