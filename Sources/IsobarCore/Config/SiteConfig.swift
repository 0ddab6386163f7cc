import Foundation

/// `isobar.yml`, validated, with every path resolved against the config file's folder.
public struct SiteConfig: Sendable, Equatable {
    public var file: URL
    public var title: String
    public var baseURL: URL
    /// The site's language: its pages at the top level, and the API's `lang`.
    public var language: String
    /// Every language the site is built in, `language` first (`languages:`; else just it).
    public var languages: [String]
    public var units: Units
    /// `provider:`: the chain of forecast sources, tried in order for each city until one
    /// answers (`[met-norway, open-meteo]`); one name is a chain of one.
    public var providers: [ProviderKind]
    public var snapshotDirectory: URL
    public var openWeather: OpenWeatherSettings
    public var openMeteo: OpenMeteoSettings
    /// `contact:`: an e-mail or web address naming the site's owner, sent to the services
    /// whose terms ask who is calling (MET Norway's and NWS's User-Agent).
    public var contact: String? = nil
    public var metNorway = MetNorwaySettings()
    public var nws = NWSSettings()
    public var weatherKit = WeatherKitSettings()
    /// `alerts:`: where official warnings come from (`WarningSettings.swift`).
    public var alerts: AlertsChoice = .auto
    public var meteoAlarm = MeteoAlarmSettings()
    /// `map:`: the places' map over tiles from a tile server; nil draws the pins alone.
    public var map: MapSettings? = nil
    /// `normals:`: where the climate normals the pages compare with come from.
    public var normals: NormalsSettings = .off
    /// `share_card:`: each city page's share image (`<slug>/card.png`, its og:image).
    public var shareCard = true
    /// `offline:`: publish the service worker that keeps pages for reading offline
    /// (README, "Offline and installable"); the web app manifest is published either way.
    public var offline = true
    public var cache: CacheSettings
    public var history: HistorySettings
    public var templatesDirectory: URL
    public var publicDirectory: URL
    public var placesFile: URL
    public var outputDirectory: URL
    /// A city whose fetch fails is rebuilt from cached data younger than this.
    public var staleAfter: TimeInterval
    /// Where `isobar deploy` puts the site; nil without a `deploy:` block.
    public var deploy: DeploySettings?
    /// Set by `isobar serve --sample` (`SampleWeather`), never by the file: every page says
    /// its weather is a sample.
    public var sampleWeather = false
    public var cities: [CityConfig]

    /// The chain's first provider: the one the call budget plans for.
    public var provider: ProviderKind { providers[0] }

    /// A city's chain: its own `provider:`, else the site's.
    public func providers(for city: CityConfig) -> [ProviderKind] { city.providers ?? providers }

    /// Every provider some city may use, in the order first met.
    public var providersUsed: [ProviderKind] {
        var kinds: [ProviderKind] = []
        for kind in providers + cities.flatMap({ $0.providers ?? [] }) where !kinds.contains(kind) { kinds.append(kind) }
        return kinds
    }
}

public enum ProviderKind: String, Sendable, Equatable, CaseIterable {
    case snapshot
    case openweather
    case openMeteo = "open-meteo"
    case metNorway = "met-norway"
    case nws
    case weatherKit = "weatherkit"
}

/// `met_norway:` — MET Norway's Locationforecast 2.0 (no key; its terms ask for an
/// identifying User-Agent instead). The rate limit, concurrency and timeouts are the
/// `openweather:` block's, which govern every request.
public struct MetNorwaySettings: IdentifiedServiceSettings {
    public var limits = CallLimits()
    /// The product's folder; requests go to `<base_url>/complete`.
    public var baseURL = URL(string: "https://api.met.no/weatherapi/locationforecast/2.0")!
    /// Overrides the top-level `contact:` for MET Norway alone.
    public var contact: String?
}

/// A keyless service's block whose requests say who sends them (`met_norway:`, `nws:`):
/// read by one loader, with the same keys.
public protocol IdentifiedServiceSettings: Sendable, Equatable {
    var limits: CallLimits { get set }
    var baseURL: URL { get set }
    var contact: String? { get set }
}

/// `nws:` — the US National Weather Service's API (no key; its documentation asks for a
/// User-Agent that identifies the application and a contact). The rate limit,
/// concurrency and timeouts are the `openweather:` block's, which govern every request.
public struct NWSSettings: IdentifiedServiceSettings {
    public var limits = CallLimits()
    /// Requests go to `<base_url>/points/…`, then to the URLs its answer names.
    public var baseURL = URL(string: "https://api.weather.gov")!
    /// Overrides the top-level `contact:` for NWS alone.
    public var contact: String?
}

extension SiteConfig {
    /// The contact a provider's requests carry, for the providers whose terms ask who is
    /// calling (its own block's `contact:`, else the top-level one); nil for the others.
    public func contact(for provider: ProviderKind) -> String? {
        switch provider {
        case .metNorway: return metNorway.contact ?? contact
        case .nws: return nws.contact ?? contact
        case .snapshot, .openweather, .openMeteo, .weatherKit: return nil
        }
    }
}

extension ProviderKind {
    /// Who asks every request to say who sends it, for the providers that refuse (or may
    /// block) a client they cannot identify; nil for the others.
    public var contactRequiredBy: String? {
        switch self {
        case .metNorway: return "MET Norway's terms ask every request to say who sends it"
        case .nws: return "the NWS API's documentation asks every request to identify the application and a contact"
        case .snapshot, .openweather, .openMeteo, .weatherKit: return nil
        }
    }
}

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

/// `daily_limit` and `monthly_limit`: the most requests a provider may be sent per UTC
/// day and calendar month (UTC), retries and geocoding included, across runs.
public struct CallLimits: Sendable, Equatable {
    public var daily: Int?
    public var monthly: Int?

    public init(daily: Int? = nil, monthly: Int? = nil) {
        self.daily = daily
        self.monthly = monthly
    }

    public var isEmpty: Bool { daily == nil && monthly == nil }
}

public struct CacheSettings: Sendable, Equatable {
    public var directory: URL
    /// Seconds a cached response is used without asking the API again.
    public var maxAge: TimeInterval = 600
}

/// `history:` — where each run's observations and forecasts are kept (SQLite).
public struct HistorySettings: Sendable, Equatable {
    public var enabled = true
    public var database: URL
    /// `start_from`: recorded responses imported into a history that has no observation
    /// yet (`isobar history import`), so a new site starts with a past.
    public var startFrom: URL?

    /// How far ahead the forecasts the history checks were made, hours: the page says how
    /// the forecasts made a day and three days before did. The history keeps these hours
    /// of every run (`DayFacts.leadHours`), and providers are asked for steps reaching them
    /// (`SiteConfig.forecastHours`).
    public static let checkLeadHours = [24, 72]
}

extension SiteConfig {
    /// Hourly steps a provider is asked for, where it can be asked (Open-Meteo): the pages
    /// show 48 hours; the history's checks need the whole hour `checkLeadHours.max()` hours
    /// after a data time late in its hour, so the step after it on, and a few more.
    public var forecastHours: Int { (HistorySettings.checkLeadHours.max() ?? 0) + 4 }
}

public struct CityConfig: Sendable, Equatable {
    public var name: String
    public var country: String
    public var state: String?
    public var latitude: Double?
    public var longitude: Double?
    public var units: Units
    public var slug: String
    /// IANA zone for providers that only report an offset (the free 2.5 API).
    public var timeZone: String?
    /// `refresh:`: how old the city's data may get before it is fetched again; nil
    /// follows `cache.max_age`.
    public var refresh: TimeInterval?
    /// `language:`: the one of the site's languages its page at the top level is in (Lod's
    /// in Hebrew on an English site), nil for the site's; as written in `languages:`.
    public var language: String? = nil
    /// `provider:` for this city alone (a chain, as the site's); nil follows the site's.
    public var providers: [ProviderKind]? = nil
    /// `warning_area:`: codes of the warning areas the city lies in (MeteoAlarm's EMMA_ID,
    /// or a NUTS or national code its feed uses), for warnings sent without a polygon.
    public var warningAreas: [String] = []
    /// Where the city is listed in the config file, for `isobar check`'s warnings about it
    /// (without the line's text, which is read only when a warning shows it).
    public var listedAt: SourceLocation?

    public var coordinates: (latitude: Double, longitude: Double)? {
        guard let latitude, let longitude else { return nil }
        return (latitude, longitude)
    }

}
