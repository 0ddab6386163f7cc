import Foundation

// The shapes of Open-Meteo's JSON with `timeformat=unixtime`: each block is a set of
// parallel arrays (hourly, daily) or single values (current). Absent variables are nil:
// a body holds whichever variables its request named, so every variable is optional but
// the current temperature (what "now", the index card and the history are built on). An
// hour or a day without its temperature is left out; a series without `time` is no series.

struct OpenMeteoForecastBody: Decodable {
    struct Current: Decodable {
        let time: TimeInterval
        let temperature_2m: Double
        let relative_humidity_2m: Double?
        let apparent_temperature: Double?
        let is_day: Int?
        let precipitation: Double?
        let rain: Double?
        let showers: Double?
        let snowfall: Double?
        let weather_code: Int?
        let cloud_cover: Double?
        let pressure_msl: Double?
        let surface_pressure: Double?
        let wind_speed_10m: Double?
        let wind_direction_10m: Double?
        let wind_gusts_10m: Double?
        let visibility: Double?
        let uv_index: Double?
        let dew_point_2m: Double?
    }

    struct Hourly: Decodable {
        let time: [TimeInterval]?
        let temperature_2m: [Double?]?
        let apparent_temperature: [Double?]?
        let relative_humidity_2m: [Double?]?
        let precipitation_probability: [Double?]?
        let rain: [Double?]?
        let showers: [Double?]?
        let snowfall: [Double?]?
        let weather_code: [Int?]?
        let wind_speed_10m: [Double?]?
        let wind_direction_10m: [Double?]?
        let wind_gusts_10m: [Double?]?
        let is_day: [Int?]?
        let pressure_msl: [Double?]?
        let dew_point_2m: [Double?]?
        let uv_index: [Double?]?
        let cloud_cover: [Double?]?
        let visibility: [Double?]?
    }

    struct Daily: Decodable {
        let time: [TimeInterval]?
        let weather_code: [Int?]?
        let temperature_2m_max: [Double?]?
        let temperature_2m_min: [Double?]?
        let sunrise: [TimeInterval?]?
        let sunset: [TimeInterval?]?
        let precipitation_probability_max: [Double?]?
        let rain_sum: [Double?]?
        let showers_sum: [Double?]?
        let snowfall_sum: [Double?]?
        let wind_speed_10m_max: [Double?]?
        let wind_direction_10m_dominant: [Double?]?
        let uv_index_max: [Double?]?
        let wind_gusts_10m_max: [Double?]?
    }

    let latitude: Double
    let longitude: Double
    let utc_offset_seconds: Int
    let timezone: String?
    /// Absent when only `hourly` was asked for: "now" is then the nearest hour.
    let current: Current?
    let hourly: Hourly?
    let daily: Daily?
    let minutely_15: Minutely15?

    /// Each value is the sum over the quarter hour before its time.
    struct Minutely15: Decodable {
        let time: [TimeInterval]?
        let precipitation: [Double?]?
    }
}

struct OpenMeteoAirQualityBody: Decodable {
    struct Current: Decodable {
        let time: TimeInterval
        let european_aqi: Double?
        let pm10: Double?
        let pm2_5: Double?
        let nitrogen_dioxide: Double?
        let ozone: Double?
        let sulphur_dioxide: Double?
        let carbon_monoxide: Double?
    }
    let current: Current
}

/// One match of the geocoding search; a missing `results` key means "not found".
struct OpenMeteoGeocodeBody: Decodable {
    struct Result: Decodable {
        let name: String
        let latitude: Double
        let longitude: Double
        let country_code: String?
        let admin1: String?
        let timezone: String?
    }
    let results: [Result]?
}

/// Open-Meteo's error body: `{"error": true, "reason": "…"}`.
struct OpenMeteoErrorBody: Decodable {
    let error: Bool
    let reason: String?
}
