import Foundation

/// `open_meteo:` — Open-Meteo's three services; they need no key. The rate limit,
/// concurrency and timeouts are the `openweather:` block's, which govern every request.
public struct OpenMeteoSettings: Sendable, Equatable {
    /// Open-Meteo's free use has daily and monthly limits too.
    public var limits = CallLimits()
    public var baseURL = URL(string: "https://api.open-meteo.com")!
    public var geocodingURL = URL(string: "https://geocoding-api.open-meteo.com")!
    public var airQualityURL = URL(string: "https://air-quality-api.open-meteo.com")!
    /// The historical weather API (ERA5), asked once per city for its normals.
    public var archiveURL = URL(string: "https://archive-api.open-meteo.com")!
}
