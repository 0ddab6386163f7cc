import Foundation

/// What one city's run adds to the history: the observation (every current value, in
/// the canonical SI units `Forecast` holds) and the hourly forecast as issued, of which
/// the checks keep a few hours (`DayFacts.leads`). Recorded once per data time: cron
/// running more often than the data changes adds nothing.
public struct HistoryEntry: Sendable, Equatable {
    public var city: String
    /// The data time: when the observation was made and the forecast issued.
    public var time: Date
    public var source: String
    public var timeZone: String
    /// The data time's calendar day in the city's time zone (`yyyy-MM-dd`): the day the
    /// observation counts towards in the daily summaries.
    public var day: String
    public var current: CurrentConditions
    public var hourly: [HourlyForecast]

    public init(city: String, forecast: Forecast) {
        self.city = city
        time = forecast.current.time
        source = forecast.source.api
        timeZone = forecast.location.timeZone.identifier
        day = LocalDay.key(for: forecast.current.time, in: forecast.location.timeZone)
        current = forecast.current
        hourly = forecast.hourly
    }
}

/// One city's rows, for `isobar history stats`.
public struct HistoryCityStats: Sendable, Equatable {
    public var city: String
    public var observations: Int
    /// Forecast hours kept for the checks (`forecast_lead`).
    public var forecastLeads: Int
    public var first: Date?
    public var last: Date?
}

/// Where the history is kept. The build records through this and nothing else, so a
/// server database (for sites built by several machines) is another conformance.
public protocol HistoryStore: HistoryReader {
    /// Adds the entries in one transaction; an entry whose city and data time are
    /// already recorded adds nothing. Returns how many observations were new.
    func record(_ entries: [HistoryEntry]) throws -> Int
    func stats() throws -> [HistoryCityStats]
    /// What a build's pages read the past through, until they are built: by default the
    /// store itself.
    func reader() throws -> any HistoryReader
    /// Each city's revision, bumped when its past changes other than by a new data time
    /// (an import): part of its pages' fingerprint.
    func revisions() throws -> [String: Int]
    /// Applies the retention policy when it last ran a day or more before `now`: nil
    /// when it was not due.
    func pruneIfDue(now: Date) throws -> PruneOutcome?
    /// Closes the store's connections; nothing reads or writes it afterwards.
    func close()
}

extension HistoryStore {
    public func reader() throws -> any HistoryReader { self }
}

/// Where pages read a city's past.
public protocol HistoryReader: Sendable {
    /// What the history holds about a city from before `time` (its data time), whose
    /// local day is `today`.
    func past(of city: String, before time: Date, today: String) throws -> CityPast
}
