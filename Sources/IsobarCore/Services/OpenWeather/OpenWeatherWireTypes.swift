import Foundation

// The shapes of OpenWeather's JSON, as the real API sends them. Only what Isobar uses is
// decoded; everything else is ignored so new fields never break a build. A value a body
// may lack is optional (bodies recorded by other tools, or cut down): only the times and
// the temperatures that make "now", an hour or a day are required.

/// `cod` is a number in some responses (`200`) and a string in others (`"200"`).
struct FlexibleCode: Decodable, Equatable {
    let value: Int

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self), let number = Int(text) {
            value = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "`cod` is neither a number nor a numeric string")
        }
    }
}

/// Rain and snow volume in mm: an object `{"1h": 0.2}` / `{"3h": 0.6}` in current and
/// hourly data, but a plain number in daily data.
struct Precipitation: Decodable, Equatable {
    var millimetres: Double
    /// The hours the amount covers (`1h` or `3h`); nil for a daily total.
    var hours: Int? = nil

    /// The amount when it is the last hour's: the free API's current weather may send
    /// only the last three hours', which is no "last hour".
    var lastHour: Double? { hours == 1 ? millimetres : nil }

    private struct Keys: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let number = try? single.decode(Double.self) {
            millimetres = number
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        for (key, hours) in [("1h", 1), ("3h", 3)] {
            if let number = try container.decodeIfPresent(Double.self, forKey: Keys(stringValue: key)) {
                millimetres = number
                self.hours = hours
                return
            }
        }
        millimetres = 0
    }
}

struct OWCondition: Decodable {
    let id: Int
    let main: String?
    let description: String?
    let icon: String?

    var condition: Condition {
        Condition(code: id, main: main ?? "", description: description ?? main ?? "", icon: icon ?? "")
    }
}

extension Optional where Wrapped == [OWCondition] {
    /// The first entry is the primary condition; nil where the body has none (no icon).
    var primary: Condition? { self?.first?.condition }
    /// Every entry, the most significant first; empty where the body has none.
    var all: [Condition] { (self ?? []).map(\.condition) }
}

// MARK: One Call 3.0

/// Read by hand from the JSON tree (OneCallReading.swift), not through `Decodable`.
struct OneCallBody {
    let lat: Double
    let lon: Double
    let timezone: String
    /// Absent in bodies sent before 2020 or so, which name only the zone.
    let timezone_offset: Int?
    let current: Current
    let hourly: [Hourly]?
    let daily: [Daily]?
    let alerts: [Alert]?
    /// Precipitation (mm/h) for each of the next 60 minutes, where available.
    let minutely: [Minute]?

    struct Minute {
        let dt: TimeInterval
        let precipitation: Double
    }

    struct Current {
        let dt: TimeInterval
        let sunrise: TimeInterval?
        let sunset: TimeInterval?
        let temp: Double
        let feels_like: Double?
        let pressure: Double?
        let humidity: Double?
        let dew_point: Double?
        let uvi: Double?
        let clouds: Double?
        let visibility: Double?
        let wind_speed: Double?
        let wind_deg: Double?
        let wind_gust: Double?
        let rain: Precipitation?
        let snow: Precipitation?
        let weather: [OWCondition]?
    }

    struct Hourly {
        let dt: TimeInterval
        let temp: Double
        let feels_like: Double?
        let pressure: Double?
        let humidity: Double?
        let dew_point: Double?
        let uvi: Double?
        let clouds: Double?
        let visibility: Double?
        let pop: Double?
        let wind_speed: Double?
        let wind_deg: Double?
        let wind_gust: Double?
        let rain: Precipitation?
        let snow: Precipitation?
        let weather: [OWCondition]?
    }

    struct Daily {
        struct Temperatures {
            let min: Double
            let max: Double
        }
        let dt: TimeInterval
        let sunrise: TimeInterval?
        let sunset: TimeInterval?
        let moon_phase: Double?
        let moonrise: TimeInterval?
        let moonset: TimeInterval?
        let summary: String?
        let temp: Temperatures
        let pressure: Double?
        let humidity: Double?
        let dew_point: Double?
        let clouds: Double?
        let pop: Double?
        let rain: Precipitation?
        let snow: Precipitation?
        let wind_speed: Double?
        let wind_deg: Double?
        let wind_gust: Double?
        let uvi: Double?
        let weather: [OWCondition]?
    }

    struct Alert {
        let sender_name: String?
        let event: String
        let start: TimeInterval
        let end: TimeInterval
        let description: String?
        let tags: [String]?
    }
}

// MARK: Free 2.5 current weather and 5-day / 3-hour forecast

struct CurrentWeatherBody: Decodable {
    struct Coordinates: Decodable {
        let lat: Double
        let lon: Double
    }
    struct Main: Decodable {
        let temp: Double
        let feels_like: Double?
        let temp_min: Double?
        let temp_max: Double?
        let pressure: Double?
        /// Sea-level pressure, which `pressure` is only "by default" (OpenWeather's words).
        let sea_level: Double?
        let humidity: Double?

        /// Pressure at sea level, as the model keeps it: `sea_level` where the body has it.
        var seaLevelPressure: Double? { sea_level ?? pressure }
    }
    struct Wind: Decodable {
        let speed: Double?
        let deg: Double?
        let gust: Double?
    }
    struct Clouds: Decodable {
        let all: Double?
    }
    struct Sys: Decodable {
        let country: String?
        let sunrise: TimeInterval?
        let sunset: TimeInterval?
    }
    let cod: FlexibleCode?
    let coord: Coordinates
    let weather: [OWCondition]?
    let main: Main
    let visibility: Double?
    let wind: Wind?
    let clouds: Clouds?
    let rain: Precipitation?
    let snow: Precipitation?
    let dt: TimeInterval
    let sys: Sys?
    let timezone: Int
    let name: String?
}

struct FiveDayForecastBody: Decodable {
    struct Entry: Decodable {
        let dt: TimeInterval
        let main: CurrentWeatherBody.Main
        let weather: [OWCondition]?
        let clouds: CurrentWeatherBody.Clouds?
        let wind: CurrentWeatherBody.Wind?
        let visibility: Double?
        let pop: Double?
        let rain: Precipitation?
        let snow: Precipitation?
    }
    struct City: Decodable {
        let name: String?
        let country: String?
        let timezone: Int?
        let sunrise: TimeInterval?
        let sunset: TimeInterval?
    }
    let cod: FlexibleCode?
    let list: [Entry]
    let city: City?
}

// MARK: Air Pollution and Geocoding

struct AirPollutionBody: Decodable {
    struct Entry: Decodable {
        struct Main: Decodable {
            let aqi: Int
        }
        let main: Main
        let components: [String: Double]?
        let dt: TimeInterval
    }
    let list: [Entry]
}

/// One match of `/geo/1.0/direct`.
public struct GeocodedPlace: Decodable, Sendable, Equatable {
    public let name: String
    public let lat: Double
    public let lon: Double
    public let country: String
    public let state: String?
}
