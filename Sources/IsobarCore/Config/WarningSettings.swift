import Foundation

/// `alerts:` — where a city's official weather warnings come from (README, "Weather warnings").
public enum AlertsChoice: Sendable, Equatable {
    /// The national service that issues them for the city's country (NWS for the US,
    /// MeteoAlarm for its European members), else OpenWeather's own where it is the provider.
    case auto
    /// No warnings at all: pages say warnings are not available.
    case off
    /// These sources, each for the cities it covers.
    case sources([WarningSourceKind])
}

/// A service of official warnings: a provider kind of its own (DESIGN.md, "The pipeline").
public enum WarningSourceKind: String, Sendable, Equatable, CaseIterable, Codable {
    /// The US National Weather Service, `/alerts/active?point=` (the US only).
    case nws
    /// MeteoAlarm (EUMETNET), one CAP feed per member country.
    case meteoalarm
    /// The `alerts` of OpenWeather's One Call, where OpenWeather is the forecast provider.
    case openweather
    /// WeatherKit's `weatherAlerts` (national services' warnings as Apple relays them),
    /// where WeatherKit is the forecast provider.
    case weatherkit

    /// The source's name on pages, in the feed and in messages.
    public var displayName: String {
        switch self {
        case .nws: return "NWS"
        case .meteoalarm: return "MeteoAlarm"
        case .openweather: return "OpenWeather"
        case .weatherkit: return "WeatherKit"
        }
    }
}

/// `meteoalarm:` — MeteoAlarm's public feeds (no key): `<base_url>/api/v1/warnings/feeds-<country>`.
public struct MeteoAlarmSettings: Sendable, Equatable {
    public var baseURL = URL(string: "https://feeds.meteoalarm.org")!
}

extension SiteConfig {
    /// The sources `alerts:` names for the city, each only where it covers it; `auto` picks
    /// the national service and OpenWeather's own only where there is none. The NWS without a
    /// contact is left out (`isobar check` says so; an explicit `[nws]` is a config error).
    public func warningSources(for city: CityConfig) -> [WarningSourceKind] {
        let country = city.country.uppercased()
        let covers: (WarningSourceKind) -> Bool = { kind in
            switch kind {
            case .nws: return country == "US" && self.contact(for: .nws) != nil
            case .meteoalarm: return MeteoAlarmCountries.feedName(of: country) != nil
            // Snapshots: One Call recordings hold OpenWeather's alerts.
            case .openweather: return self.providers(for: city).contains(.openweather) || self.provider == .snapshot
            case .weatherkit: return self.providers(for: city).contains(.weatherKit) || self.provider == .snapshot
            }
        }
        switch alerts {
        case .off:
            return []
        case .sources(let listed):
            return listed.filter(covers)
        case .auto:
            let national = [WarningSourceKind.nws, .meteoalarm].filter(covers)
            // A snapshot has the sources that were recorded (`WarningFetcher.recordedOnly`).
            let providers: [WarningSourceKind] = [.openweather, .weatherkit]
            if provider == .snapshot { return national + providers }
            return national.isEmpty ? providers.filter(covers) : national
        }
    }

    /// The US cities whose warnings would come from the NWS but cannot, for want of a contact.
    public var nwsCitiesWithoutContact: [CityConfig] {
        guard contact(for: .nws) == nil, alerts != .off else { return [] }
        if case .sources(let listed) = alerts, !listed.contains(.nws) { return [] }
        return cities.filter { $0.country.uppercased() == "US" }
    }
}
