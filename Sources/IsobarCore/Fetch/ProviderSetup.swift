import Foundation

/// The forecast sources the config names, each made once for a run: the providers of
/// every chain (`ProviderChain`), how each locates cities (the snapshots' files, or a
/// geocoder with the cache), and for live providers the run's one libcurl client and rate
/// limiter, and each provider's call budget. Offline, or from snapshots, there are none.
struct ProviderSetup: Sendable {
    var chain: ProviderChain
    /// The run's HTTP client (closed when the run ends) and rate limiter; nil offline.
    var live: Live?
    var http: CurlHTTPClient? { live?.http }
    /// The call budget of the site's first provider, which plans the run's refreshes; nil
    /// for snapshots and `--offline`. Every other provider's budget refuses requests past
    /// its own limits as they are sent.
    var budget: CallBudget?
    /// Every live provider's call budget, one for each (two on one ledger would each
    /// think they were alone).
    var budgets: [ProviderKind: CallBudget] = [:]

    /// What is shared by every live provider and warning source of a run: one client, one
    /// rate limit.
    struct Live {
        var http: CurlHTTPClient
        var limiter: RateLimiter
        var tally: RequestTally
    }

    /// One provider made: itself, how its cities are located, its budget.
    typealias Made = (member: ProviderChain.Member, budget: CallBudget?)

    static func make(_ config: SiteConfig, offline: Bool, tally: RequestTally, environment: BuildEnvironment) throws -> ProviderSetup {
        // A site built from snapshots has no client, unless its map's tiles need one.
        let live = offline || (config.provider == .snapshot && config.map == nil) ? nil : Live(
            http: CurlHTTPClient(settings: httpSettings(config.openWeather)),
            limiter: RateLimiter(requestsPerMinute: config.openWeather.requestsPerMinute, clock: environment.clock,
                                 onWaiting: { [observer = environment.observer] in observer?.rateLimit(waiting: $0) }),
            tally: tally)
        var members: [ProviderKind: ProviderChain.Member] = [:]
        var budgets: [ProviderKind: CallBudget] = [:]
        for kind in config.providersUsed {
            let made = try member(kind, config, live: live, environment)
            members[kind] = made.member
            budgets[kind] = made.budget
        }
        return ProviderSetup(chain: ProviderChain(members: members, config: config), live: live, budget: budgets[config.provider], budgets: budgets)
    }

    private static func member(_ kind: ProviderKind, _ config: SiteConfig, live: Live?, _ environment: BuildEnvironment) throws -> Made {
        let cached = ResponseStore(root: config.cache.directory)
        switch kind {
        case .snapshot:
            return (.init(kind: kind, provider: SnapshotProvider(directory: config.snapshotDirectory),
                          locator: Locator(store: ResponseStore(root: config.snapshotDirectory), geocoder: nil, required: false)), nil)
        case .openweather:
            let made = try openWeather(config, live: live, environment)
            return (.init(kind: kind, provider: made.provider, locator: Locator(store: cached, geocoder: made.provider, required: true)), made.budget)
        case .openMeteo:
            let made = openMeteo(config, live: live, environment)
            return (.init(kind: kind, provider: made.provider,
                          locator: Locator(store: cached, geocoder: made.provider, required: true, endpoint: .openMeteoGeocode)), made.budget)
        case .metNorway:
            return try metNorway(config, live: live, environment)
        case .nws:
            return try nws(config, live: live, environment)
        case .weatherKit:
            return try weatherKit(config, live: live, environment)
        }
    }

    /// MET Norway needs no key but a contact (the config refuses a site without one). It
    /// has no geocoder: cities without `lat`/`lon` are located by Open-Meteo's keyless one
    /// (`openMeteoLocator`).
    private static func metNorway(_ config: SiteConfig, live: Live?, _ environment: BuildEnvironment) throws -> Made {
        let cache = responseCache(config, environment)
        let requests = MetNorwayRequests(baseURL: config.metNorway.baseURL, contact: try requiredContact(config, .metNorway))
        let polite = live.map { politeClient($0, .metNorway, limits: config.metNorway.limits, config, environment) }
        let clock = environment.clock
        let offTheHour = live.map { _ in OffTheHour(sleep: { try await clock.sleep($0) }, announce: environment.log) }
        let provider = MetNorwayProvider(requests: requests, client: polite?.client, cache: cache, offTheHour: offTheHour, log: environment.log)
        return (.init(kind: .metNorway, provider: provider, locator: openMeteoLocator(config, cache: cache, client: polite?.client)), polite?.budget)
    }

    /// NWS needs no key but a contact (the config refuses a site without one), and has no
    /// geocoder either: as for MET Norway.
    private static func nws(_ config: SiteConfig, live: Live?, _ environment: BuildEnvironment) throws -> Made {
        let cache = responseCache(config, environment)
        let requests = NWSRequests(baseURL: config.nws.baseURL, contact: try requiredContact(config, .nws))
        let polite = live.map { politeClient($0, .nws, limits: config.nws.limits, config, environment) }
        return (.init(kind: .nws, provider: NWSProvider(requests: requests, client: polite?.client, cache: cache),
                      locator: openMeteoLocator(config, cache: cache, client: polite?.client)), polite?.budget)
    }

    /// The contact a provider's terms ask its requests to carry; the config refuses a site
    /// without one, so this only guards a config made in code.
    private static func requiredContact(_ config: SiteConfig, _ provider: ProviderKind) throws -> String {
        guard let contact = config.contact(for: provider) else {
            throw IsobarError(step: .config, path: config.file.path, message: "provider: \(provider.rawValue) needs a contact",
                              hint: "add `contact: you@example.org` at the top level of \(config.file.lastPathComponent)")
        }
        return contact
    }

    /// For a provider without a geocoder (MET Norway, NWS, WeatherKit): cities without
    /// `lat`/`lon` are located by Open-Meteo's keyless one, as with `provider: open-meteo`,
    /// through the provider's client (nil offline); those few lookups, kept for good, are
    /// left out of its budget (they are not its requests).
    static func openMeteoLocator(_ config: SiteConfig, cache: ResponseCache, client: PoliteClient?) -> Locator {
        var geocodingClient = client
        geocodingClient?.budget = nil
        let requests = OpenMeteoRequests(settings: config.openMeteo, language: config.language, forecastHours: config.forecastHours)
        return Locator(store: cache.store, geocoder: OpenMeteoProvider(requests: requests, client: geocodingClient, cache: cache),
                       required: true, endpoint: .openMeteoGeocode)
    }

    /// Open-Meteo needs no key.
    private static func openMeteo(_ config: SiteConfig, live: Live?, _ environment: BuildEnvironment) -> (provider: OpenMeteoProvider, budget: CallBudget?) {
        let requests = OpenMeteoRequests(settings: config.openMeteo, language: config.language, forecastHours: config.forecastHours)
        let polite = live.map { politeClient($0, .openMeteo, limits: config.openMeteo.limits, config, environment) }
        return (OpenMeteoProvider(requests: requests, client: polite?.client, cache: responseCache(config, environment)), polite?.budget)
    }

    /// A provider's way to the network: the run's one client and rate limiter (every
    /// provider shares `openweather.requests_per_minute` and friends), the retry policy,
    /// and the provider's own call budget.
    static func politeClient(_ live: Live, _ kind: ProviderKind, limits: CallLimits, _ config: SiteConfig,
                                     _ environment: BuildEnvironment) -> (client: PoliteClient, budget: CallBudget) {
        let budget = CallBudget(provider: kind.rawValue, limits: limits, cache: config.cache.directory, now: environment.now)
        return (PoliteClient(client: live.http, limiter: live.limiter, retry: environment.retry, clock: environment.clock,
                             budget: budget, tally: live.tally), budget)
    }

    static func responseCache(_ config: SiteConfig, _ environment: BuildEnvironment) -> ResponseCache {
        ResponseCache(store: ResponseStore(root: config.cache.directory), maxAge: config.cache.maxAge, now: environment.now)
    }

    private static func httpSettings(_ settings: OpenWeatherSettings) -> HTTPClientSettings {
        var http = HTTPClientSettings()
        http.maxConcurrentTransfers = settings.concurrency
        http.totalTimeout = settings.timeout
        http.connectTimeout = min(settings.connectTimeout, settings.timeout)
        return http
    }

    /// OpenWeather: the key from the environment and one mode switch for the whole run.
    /// Offline, neither is needed.
    private static func openWeather(_ config: SiteConfig, live: Live?, _ environment: BuildEnvironment) throws
        -> (provider: OpenWeatherProvider, budget: CallBudget?)
    {
        let settings = config.openWeather
        let cache = responseCache(config, environment)
        let modes = APIModeSwitch(api: settings.api, announce: environment.log)
        guard let live else {
            return (OpenWeatherProvider(requests: nil, client: nil, cache: cache, modes: modes,
                                        keyVariable: settings.apiKeyEnvironmentVariable, api: settings.api), nil)
        }
        let variable = settings.apiKeyEnvironmentVariable
        guard let key = environment.variables[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            throw IsobarError(
                step: .config, path: config.file.path,
                message: "no OpenWeather API key: the environment variable \(variable) is not set",
                hint: "export \(variable)=your-key (from https://home.openweathermap.org/api_keys), or build from the cache with --offline")
        }
        let polite = politeClient(live, .openweather, limits: settings.limits, config, environment)
        let requests = OpenWeatherRequests(baseURL: settings.baseURL, apiKey: key, language: config.language)
        return (OpenWeatherProvider(requests: requests, client: polite.client, cache: cache, modes: modes,
                                    keyVariable: variable, api: settings.api), polite.budget)
    }
}
