import Foundation

/// `openweather:` — OpenWeather's key, API and limits, and (for historical reasons) the
/// rate limit, concurrency and timeouts that govern every request of a run.
public struct OpenWeatherSettings: ServiceBlock {
    public init() {}

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

extension SiteConfig {
    /// `openweather:`
    public var openWeather: OpenWeatherSettings {
        get { services[OpenWeatherSettings.self] }
        set { services[OpenWeatherSettings.self] = newValue }
    }
}

extension ConfigLoader {
    static let openWeatherKeys = ["api", "base_url", "api_key_env", "requests_per_minute", "concurrency", "timeout", "connect_timeout",
                                  "daily_limit", "monthly_limit"]

    static func loadOpenWeather(_ value: YAMLValue?) throws -> OpenWeatherSettings {
        var settings = OpenWeatherSettings()
        guard let value else { return settings }
        let map = try value.mapping(allowed: openWeatherKeys)
        if let api = map["api"] { settings.api = try api.oneOf(OpenWeatherSettings.API.self, what: "an OpenWeather API choice") }
        if let base = map["base_url"] {
            let text = try base.nonEmptyString()
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil else {
                throw base.error("\"\(text)\" is not an http(s) address", hint: "the default is https://api.openweathermap.org")
            }
            settings.baseURL = url
        }
        if let env = map["api_key_env"] {
            settings.apiKeyEnvironmentVariable = try variableName(env, example: "OPENWEATHER_API_KEY")
        }
        if let rate = map["requests_per_minute"] {
            settings.requestsPerMinute = try rate.int()
            guard (1...100_000).contains(settings.requestsPerMinute) else { throw rate.error("must be between 1 and 100000") }
        }
        for (key, keyPath) in [("timeout", \OpenWeatherSettings.timeout), ("connect_timeout", \OpenWeatherSettings.connectTimeout)] {
            guard let value = map[key] else { continue }
            settings[keyPath: keyPath] = try duration(value, in: .timeout)
        }
        if let concurrency = map["concurrency"] {
            settings.concurrency = try concurrency.int()
            guard (1...64).contains(settings.concurrency) else { throw concurrency.error("must be between 1 and 64") }
        }
        settings.limits = try limits(map)
        return settings
    }
}
