import Foundation

/// One local day as observed: its low, high, mean and precipitation, in canonical units.
public struct ObservedDay: Sendable, Equatable, Codable {
    /// `yyyy-MM-dd` in the city's time zone.
    public var day: String
    public var low: Double
    public var high: Double
    public var mean: Double
    /// Rain and snow, mm.
    public var precipitation: Double
    /// Observations the day was made from.
    public var samples: Int

}

/// How the forecasts made `leadHours` ahead did over a period: built from the pairs the
/// store keeps (forecast, then what was observed at its target hour).
public struct ForecastCheck: Sendable, Equatable, Codable {
    public var leadHours: Int
    /// Forecast–observation pairs, and the local days they fall on.
    public var pairs: Int
    public var days: Int
    /// Mean absolute error of the temperature, °C.
    public var meanAbsoluteError: Double
    /// Hours forecast with a precipitation chance of 50 % or more, and how many of them
    /// had precipitation observed.
    public var likelyRain: Int
    public var likelyRainHappened: Int

}

/// What the history holds about a city from before a data time: everything its pages'
/// history sections are made from. Read before the data time only, so a page does not
/// depend on whether this run's own observation has been written yet.
public struct CityPast: Sendable, Equatable {
    /// Local days before today: the last 8, and every earlier day in this month of the
    /// year (any year), oldest first.
    public var days: [ObservedDay] = []
    /// Today until the data time, when anything was observed today before it; its
    /// precipitation counts the clock hours before the data time's.
    public var today: ObservedDay? = nil
    /// The largest last-hour precipitation reported earlier in the data time's clock hour
    /// (which this run's observation may exceed: each hour counts once, at its largest).
    public var currentHourPrecipitation = 0.0
    /// The first local day in the history: since when records are kept.
    public var firstDay: String? = nil
    /// An observed temperature and its data time.
    public struct Reading: Sendable, Equatable {
        public var time: Date
        public var temperature: Double

    }

    /// The observation nearest 24 h before the data time (within 90 minutes).
    public var yesterday: Reading? = nil
    /// The verified forecasts whose target falls on the last 30 UTC days (the data time's
    /// included) and is at least half an hour before the data time, per lead.
    public var checks: [ForecastCheck] = []
}
