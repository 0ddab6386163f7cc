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
    /// `contact:`: an e-mail or web address naming the site's owner, sent to the services
    /// whose terms ask who is calling (MET Norway's and NWS's User-Agent).
    public var contact: String? = nil
    /// Each service's own block (`met_norway:`), read by the service's folder.
    public var services = ServiceBlocks()
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

/// A forecast source by its name in `provider:`: `snapshot`, or a service of the registry
/// (each declares its own in its folder).
public struct ProviderKind: RawRepresentable, Hashable, Sendable, CaseIterable {
    public let rawValue: String

    init(name: String) { rawValue = name }

    public init?(rawValue: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    /// Recorded responses read from `snapshots:`.
    public static let snapshot = ProviderKind(name: "snapshot")
    public static let allCases: [ProviderKind] = [.snapshot] + ServiceRegistry.forecasts.map { $0.kind }

    /// Who asks every request to say who sends it, for the providers that refuse (or may
    /// block) a client they cannot identify; nil for the others.
    public var contactRequiredBy: String? { ServiceRegistry.service(self)?.contactRequiredBy }
}

extension SiteConfig {
    /// The contact a provider's requests carry, for the providers whose terms ask who is
    /// calling (its own block's `contact:`, else the top-level one); nil for the others.
    public func contact(for provider: ProviderKind) -> String? {
        ServiceRegistry.service(provider)?.contact(self)
    }
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
