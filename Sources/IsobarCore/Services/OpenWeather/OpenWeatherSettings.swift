import Foundation

/// `openweather:` — OpenWeather's key, API and limits, and (for historical reasons) the
/// rate limit, concurrency and timeouts that govern every request of a run.
public struct OpenWeatherSettings: Sendable, Equatable {
    public enum API: String, Sendable, Equatable, CaseIterable {
        /// One Call 3.0, falling back to the free 2.5 endpoints when the key has no subscription.
        case auto
        case onecall3
        case free
    }

    public var api: API = .auto
    /// One Call 3.0 gives 1,000 calls a day free and bills each call after that.
    public var limits = CallLimits()
    public var baseURL: URL = URL(string: "https://api.openweathermap.org")!
    public var apiKeyEnvironmentVariable = "OPENWEATHER_API_KEY"
    public var requestsPerMinute = 60
    public var concurrency = 8
    /// Seconds one request may take in all, and to connect.
    public var timeout: TimeInterval = 30
    public var connectTimeout: TimeInterval = 10
}
