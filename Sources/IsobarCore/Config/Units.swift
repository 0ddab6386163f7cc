/// The unit systems OpenWeather knows, by the names the API uses.
public enum Units: String, Sendable, Codable, CaseIterable {
    /// °C, m/s, km.
    case metric
    /// °F, mph, mi.
    case imperial
    /// K, m/s, km: the API's default.
    case standard
}
