/// The API responses Isobar stores, named as their files in the cache and in snapshots
/// (`<dir>/<slug>/<endpoint>.json`, DESIGN.md "Response cache and snapshots").
public enum Endpoint: String, Sendable, CaseIterable, Codable {
    /// One Call 3.0: current, hourly, daily and alerts in one body.
    case oneCall = "onecall"
    /// Free 2.5 current weather.
    case currentWeather = "weather"
    /// Free 2.5 5-day / 3-hour forecast.
    case fiveDayForecast = "forecast"
    case airPollution = "air_pollution"
    /// Geocoding `/geo/1.0/direct`, kept for good once a city is located.
    case geocode

    public var fileName: String { rawValue + ".json" }
}
