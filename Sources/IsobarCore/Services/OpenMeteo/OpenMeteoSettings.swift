import Foundation

/// `open_meteo:` — Open-Meteo's three services; they need no key. The rate limit,
/// concurrency and timeouts are the `openweather:` block's, which govern every request.
public struct OpenMeteoSettings: ServiceBlock {
    public init() {}

    /// Open-Meteo's free use has daily and monthly limits too.
    public var limits = CallLimits()
    public var baseURL = URL(string: "https://api.open-meteo.com")!
    public var geocodingURL = URL(string: "https://geocoding-api.open-meteo.com")!
    public var airQualityURL = URL(string: "https://air-quality-api.open-meteo.com")!
    /// The historical weather API (ERA5), asked once per city for its normals.
    public var archiveURL = URL(string: "https://archive-api.open-meteo.com")!
}

extension SiteConfig {
    /// `open_meteo:`
    public var openMeteo: OpenMeteoSettings {
        get { services[OpenMeteoSettings.self] }
        set { services[OpenMeteoSettings.self] = newValue }
    }
}

extension ConfigLoader {
    static let openMeteoKeys = ["base_url", "geocoding_url", "air_quality_url", "archive_url", "daily_limit", "monthly_limit"]

    static func loadOpenMeteo(_ value: YAMLValue?) throws -> OpenMeteoSettings {
        var settings = OpenMeteoSettings()
        guard let value else { return settings }
        let map = try value.mapping(allowed: openMeteoKeys)
        for (key, path) in [("base_url", \OpenMeteoSettings.baseURL), ("geocoding_url", \.geocodingURL), ("air_quality_url", \.airQualityURL), ("archive_url", \.archiveURL)] {
            guard let entry = map[key] else { continue }
            settings[keyPath: path] = try httpURL(entry)
        }
        settings.limits = try limits(map)
        return settings
    }
}
