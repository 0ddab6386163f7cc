import Foundation

/// The provider-independent forecast every later stage works from.
///
/// Values are stored in one canonical unit system whatever the provider sent
/// (°C, m/s, metres, hPa, mm, probabilities 0…1), so presentation converts
/// exactly once, into the city's configured units.
public struct Forecast: Sendable, Codable, Equatable {
    public var location: Location
    public var current: CurrentConditions
    public var hourly: [HourlyForecast]
    public var daily: [DailyForecast]
    public var alerts: [WeatherAlert]
    public var airQuality: AirQuality?
    /// Precipitation over the next hour or two, where the provider sends it: empty
    /// otherwise (and then nothing is said about the next hour).
    public var nowcast: [NowcastStep]
    public var source: Source
    /// Which warning services cover the city and which of them could not be read; nil
    /// where nobody asked (a forecast decoded on its own, as the history import does).
    public var warnings: WarningCoverage? = nil
    /// True where the body could have carried the service's own alerts but did not say
    /// (a WeatherKit body without `weatherAlerts`): no alerts is then not "none in force".
    public var alertsUnknown: Bool? = nil

    public init(
        location: Location, current: CurrentConditions, hourly: [HourlyForecast],
        daily: [DailyForecast], alerts: [WeatherAlert], airQuality: AirQuality?, nowcast: [NowcastStep] = [], source: Source
    ) {
        self.location = location
        self.current = current
        self.hourly = hourly
        self.daily = daily
        self.alerts = alerts
        self.airQuality = airQuality
        self.nowcast = nowcast
        self.source = source
    }
}

/// One step of a nowcast: One Call's `minutely` (a minute each) or Open-Meteo's
/// `minutely_15` (a quarter hour each).
public struct NowcastStep: Sendable, Codable, Equatable {
    /// When the step begins.
    public var time: Date
    public var minutes: Int
    /// mm per hour.
    public var intensity: Double
}

public struct Location: Sendable, Codable, Equatable {
    public var name: String
    public var country: String
    public var state: String?
    public var latitude: Double
    public var longitude: Double
    /// IANA identifier when the provider (or the config) names one; nil when only an offset is known.
    public var timeZoneIdentifier: String?
    /// Offset from UTC at the time of the data, in seconds.
    public var utcOffsetSeconds: Int

    /// The zone to show local times in: the named zone (DST-aware) or else the fixed offset.
    public var timeZone: TimeZone {
        if let id = timeZoneIdentifier, let zone = TimeZone(identifier: id) { return zone }
        return TimeZone(secondsFromGMT: utcOffsetSeconds) ?? TimeZone(identifier: "UTC")!
    }
}

/// One entry of the API's `weather[]`: what the sky is doing.
public struct Condition: Sendable, Codable, Equatable {
    /// OpenWeather condition code (2xx thunderstorm … 8xx clouds).
    public var code: Int
    public var main: String
    public var description: String
    /// OpenWeather icon ID such as `10d`; may be a code this version does not know.
    public var icon: String

    public init(code: Int, main: String, description: String, icon: String) {
        self.code = code
        self.main = main
        self.description = description
        self.icon = icon
    }
}

public struct CurrentConditions: Sendable, Codable, Equatable {
    public var time: Date
    public var sunrise: Date?
    public var sunset: Date?
    public var temperature: Double
    // A value the body does not carry is nil, never a made-up 0 (issue 17).
    public var feelsLike: Double?
    /// At sea level, as weather services give it.
    public var pressure: Double?
    public var humidity: Double?
    public var dewPoint: Double?
    public var uvIndex: Double?
    public var cloudCover: Double?
    public var visibility: Double?
    public var windSpeed: Double?
    public var windGust: Double?
    public var windDirection: Double?
    public var rainLastHour: Double?
    public var snowLastHour: Double?
    /// The most significant condition first (the API's order); empty where the body has
    /// no condition code (no icon and no description are shown).
    public var conditions: [Condition]
    /// At the ground, where a body has no sea-level pressure (Open-Meteo's documented
    /// substitute); shown labelled as such.
    public var surfacePressure: Double? = nil
}

public struct HourlyForecast: Sendable, Codable, Equatable {
    public var time: Date
    /// Hours this entry covers: 1 for One Call, 3 for the free 5-day/3-hour forecast.
    public var stepHours: Int
    public var temperature: Double
    public var feelsLike: Double?
    public var humidity: Double?
    /// 0…1.
    public var precipitationChance: Double?
    public var rain: Double?
    public var snow: Double?
    public var windSpeed: Double?
    public var windGust: Double?
    public var windDirection: Double?
    /// Nil where the body has no condition code for the hour: no icon is shown for it.
    public var condition: Condition?
    // Each value below is nil where the provider sends none (the free 2.5 forecast has no
    // UV index), never a made-up 0.
    /// Pressure at sea level, hPa (as `CurrentConditions.pressure`).
    public var pressure: Double? = nil
    /// Dew point, °C: the provider's, or from temperature and humidity (`DewPoint`) where
    /// it sends none.
    public var dewPoint: Double? = nil
    /// UV index (no unit).
    public var uvIndex: Double? = nil
    /// Cloud cover, 0…100 % (as `humidity` and `CurrentConditions.cloudCover`).
    public var cloudCover: Double? = nil
    /// Visibility, metres.
    public var visibility: Double? = nil
}

public struct DailyForecast: Sendable, Codable, Equatable {
    /// Local calendar day as `yyyy-MM-dd` in the city's time zone.
    public var day: String
    public var time: Date
    public var sunrise: Date?
    public var sunset: Date?
    /// 0 and 1 new moon, 0.25 first quarter, 0.5 full moon, 0.75 last quarter.
    public var moonPhase: Double?
    public var summary: String?
    public var temperatureMin: Double
    public var temperatureMax: Double
    public var precipitationChance: Double?
    public var rain: Double?
    public var snow: Double?
    public var windSpeed: Double?
    public var windDirection: Double?
    public var uvIndex: Double?
    /// Nil where the body has no condition code for the day: no icon is shown for it.
    public var condition: Condition?
    public var moonrise: Date? = nil
    public var moonset: Date? = nil
    // Where days are aggregated from 3-hourly steps (the free 2.5 API), these are the
    // steps' maximum (gust) or mean (the others); see `DailyAggregation`. Nil where the
    // provider sends none (Open-Meteo's daily block has only the gust).
    /// The day's strongest wind gust, m/s.
    public var windGust: Double? = nil
    /// Relative humidity, 0…100 % (as `CurrentConditions.humidity`).
    public var humidity: Double? = nil
    /// Pressure at sea level, hPa.
    public var pressure: Double? = nil
    /// Dew point, °C.
    public var dewPoint: Double? = nil
    /// Cloud cover, 0…100 %.
    public var cloudCover: Double? = nil
}

public struct WeatherAlert: Sendable, Codable, Equatable {
    public var sender: String
    public var event: String
    public var start: Date
    public var end: Date
    public var description: String
    public var tags: [String]
    // What CAP-based services (NWS, MeteoAlarm) say beside the text; nil where a source
    // does not (OpenWeather's One Call sends none of them).
    /// CAP `severity`.
    public var severity: AlertSeverity? = nil
    /// CAP `urgency` as sent: Immediate, Expected, Future, Past, Unknown.
    public var urgency: String? = nil
    /// CAP `certainty` as sent: Observed, Likely, Possible, Unlikely, Unknown.
    public var certainty: String? = nil
    /// What the sender tells people to do.
    public var instruction: String? = nil
    /// The area it is issued for, in the sender's words.
    public var area: String? = nil
    /// The warning service it came from.
    public var source: WarningSourceKind? = nil
}

/// CAP's `severity`, in its order from the least to the most severe.
public enum AlertSeverity: String, Sendable, Codable, Equatable, CaseIterable, Comparable {
    case unknown = "Unknown"
    case minor = "Minor"
    case moderate = "Moderate"
    case severe = "Severe"
    case extreme = "Extreme"

    /// CAP's value in any case; nil for what CAP does not define.
    public init?(cap text: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }) else { return nil }
        self = match
    }

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}

/// The warning services that cover a city (`SiteConfig.warningSources`) and those of them
/// whose warnings could not be had this run (nothing stored young enough either).
public struct WarningCoverage: Sendable, Codable, Equatable {
    public var sources: [WarningSourceKind]
    public var failed: [WarningSourceKind]

    public init(sources: [WarningSourceKind], failed: [WarningSourceKind] = []) {
        self.sources = sources
        self.failed = failed
    }
}

public struct AirQuality: Sendable, Codable, Equatable {
    /// OpenWeather's 1 (good) … 5 (very poor).
    public var index: Int
    public var time: Date
    /// μg/m³, keyed by the API's component names (`pm2_5`, `pm10`, `o3`, `no2`, …).
    public var components: [String: Double]
}

public struct Source: Sendable, Codable, Equatable {
    /// Which API the data came from, e.g. `openweather/onecall3` or `openweather/free`.
    public var api: String
    /// When the data was fetched (the snapshot or cache file's time, or the request time).
    public var fetchedAt: Date
}
