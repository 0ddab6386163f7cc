import Foundation

/// The forecast source the config names, made once for a run: the provider, how cities
/// are located (the snapshots' files, or the provider's geocoder with the cache), and for
/// a live provider its one libcurl client and its call budget. Offline, or from
/// snapshots, there is neither.
struct ProviderSetup: Sendable {
    var provider: any ForecastProvider
    var locator: Locator
    /// The run's HTTP client, closed when the run ends.
    var http: CurlHTTPClient?
    /// The live provider's call budget; nil for snapshots and `--offline`.
    var budget: CallBudget?

    static func make(_ config: SiteConfig, offline: Bool, tally: RequestTally, environment: BuildEnvironment) throws -> ProviderSetup {
        let cached = ResponseStore(root: config.cache.directory)
        switch config.provider {
        case .snapshot:
            return ProviderSetup(provider: SnapshotProvider(directory: config.snapshotDirectory),
                                 locator: Locator(store: ResponseStore(root: config.snapshotDirectory), geocoder: nil, required: false))
        case .openweather:
            let made = try openWeather(config, offline: offline, tally: tally, environment)
            return ProviderSetup(provider: made.provider, locator: Locator(store: cached, geocoder: made.provider, required: true),
                                 http: made.http, budget: made.budget)
        case .openMeteo:
            let made = openMeteo(config, offline: offline, tally: tally, environment)
            return ProviderSetup(provider: made.provider,
                                 locator: Locator(store: cached, geocoder: made.provider, required: true, endpoint: .openMeteoGeocode),
                                 http: made.http, budget: made.budget)
        case .metNorway:
            return try metNorway(config, offline: offline, tally: tally, environment)
        case .nws:
            return try nws(config, offline: offline, tally: tally, environment)
        }
    }

    /// MET Norway needs no key but a contact (the config refuses a site without one). It
    /// has no geocoder: cities without `lat`/`lon` are located by Open-Meteo's keyless one
    /// (`openMeteoLocator`).
    private static func metNorway(_ config: SiteConfig, offline: Bool, tally: RequestTally, _ environment: BuildEnvironment) throws -> ProviderSetup {
        let cache = ResponseCache(store: ResponseStore(root: config.cache.directory), maxAge: config.cache.maxAge, now: environment.now)
        let requests = MetNorwayRequests(baseURL: config.metNorway.baseURL, contact: try requiredContact(config, .metNorway))
        if offline {
            return ProviderSetup(provider: MetNorwayProvider(requests: requests, client: nil, cache: cache, offTheHour: nil, log: environment.log),
                                 locator: openMeteoLocator(config, cache: cache, client: nil))
        }
        let http = CurlHTTPClient(settings: httpSettings(config.openWeather))
        let budget = CallBudget(provider: ProviderKind.metNorway.rawValue, limits: config.metNorway.limits,
                                cache: config.cache.directory, now: environment.now)
        let client = politeClient(http, config, budget: budget, tally: tally, environment)
        let clock = environment.clock
        let offTheHour = OffTheHour(sleep: { try await clock.sleep($0) }, announce: environment.log)
        return ProviderSetup(
            provider: MetNorwayProvider(requests: requests, client: client, cache: cache, offTheHour: offTheHour, log: environment.log),
            locator: openMeteoLocator(config, cache: cache, client: client), http: http, budget: budget)
    }

    /// NWS needs no key but a contact (the config refuses a site without one), and has no
    /// geocoder either: as for MET Norway.
    private static func nws(_ config: SiteConfig, offline: Bool, tally: RequestTally, _ environment: BuildEnvironment) throws -> ProviderSetup {
        let cache = ResponseCache(store: ResponseStore(root: config.cache.directory), maxAge: config.cache.maxAge, now: environment.now)
        let requests = NWSRequests(baseURL: config.nws.baseURL, contact: try requiredContact(config, .nws))
        if offline {
            return ProviderSetup(provider: NWSProvider(requests: requests, client: nil, cache: cache),
                                 locator: openMeteoLocator(config, cache: cache, client: nil))
        }
        let http = CurlHTTPClient(settings: httpSettings(config.openWeather))
        let budget = CallBudget(provider: ProviderKind.nws.rawValue, limits: config.nws.limits, cache: config.cache.directory, now: environment.now)
        let client = politeClient(http, config, budget: budget, tally: tally, environment)
        return ProviderSetup(provider: NWSProvider(requests: requests, client: client, cache: cache),
                             locator: openMeteoLocator(config, cache: cache, client: client), http: http, budget: budget)
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

    /// For providers without a geocoder (MET Norway, NWS): cities without `lat`/`lon` are
    /// located by Open-Meteo's keyless one, as with `provider: open-meteo`, through the
    /// provider's client; those few lookups, kept for good, are left out of its budget
    /// (they are not its requests).
    private static func openMeteoLocator(_ config: SiteConfig, cache: ResponseCache, client: PoliteClient?) -> Locator {
        var geocodingClient = client
        geocodingClient?.budget = nil
        let geocoding = OpenMeteoRequests(settings: config.openMeteo, language: config.language, forecastHours: config.forecastHours)
        return Locator(store: cache.store, geocoder: OpenMeteoProvider(requests: geocoding, client: geocodingClient, cache: cache),
                       required: true, endpoint: .openMeteoGeocode)
    }

    /// Open-Meteo needs no key; it shares the run's HTTP client settings, rate limit and
    /// retries with every other request (`openweather.requests_per_minute` and friends).
    private static func openMeteo(_ config: SiteConfig, offline: Bool, tally: RequestTally, _ environment: BuildEnvironment)
        -> (provider: OpenMeteoProvider, http: CurlHTTPClient?, budget: CallBudget?)
    {
        let cache = ResponseCache(store: ResponseStore(root: config.cache.directory), maxAge: config.cache.maxAge, now: environment.now)
        let requests = OpenMeteoRequests(settings: config.openMeteo, language: config.language, forecastHours: config.forecastHours)
        if offline { return (OpenMeteoProvider(requests: requests, client: nil, cache: cache), nil, nil) }
        let http = CurlHTTPClient(settings: httpSettings(config.openWeather))
        let budget = CallBudget(provider: ProviderKind.openMeteo.rawValue, limits: config.openMeteo.limits,
                                cache: config.cache.directory, now: environment.now)
        let client = politeClient(http, config, budget: budget, tally: tally, environment)
        return (OpenMeteoProvider(requests: requests, client: client, cache: cache), http, budget)
    }

    /// The run's one rate limiter, retry policy and budget around its HTTP client.
    private static func politeClient(
        _ http: CurlHTTPClient, _ config: SiteConfig, budget: CallBudget, tally: RequestTally, _ environment: BuildEnvironment
    ) -> PoliteClient {
        let observer = environment.observer
        let limiter = RateLimiter(requestsPerMinute: config.openWeather.requestsPerMinute, clock: environment.clock,
                                  onWaiting: { observer?.rateLimit(waiting: $0) })
        return PoliteClient(client: http, limiter: limiter, retry: environment.retry, clock: environment.clock, budget: budget, tally: tally)
    }

    private static func httpSettings(_ settings: OpenWeatherSettings) -> HTTPClientSettings {
        var http = HTTPClientSettings()
        http.maxConcurrentTransfers = settings.concurrency
        http.totalTimeout = settings.timeout
        http.connectTimeout = min(settings.connectTimeout, settings.timeout)
        return http
    }

    /// The live provider: the key from the environment, one libcurl client, one rate
    /// limiter and one mode switch for the whole run. Offline, none of them exist.
    private static func openWeather(_ config: SiteConfig, offline: Bool, tally: RequestTally, _ environment: BuildEnvironment) throws
        -> (provider: OpenWeatherProvider, http: CurlHTTPClient?, budget: CallBudget?)
    {
        let settings = config.openWeather
        let cache = ResponseCache(store: ResponseStore(root: config.cache.directory), maxAge: config.cache.maxAge, now: environment.now)
        let modes = APIModeSwitch(api: settings.api, announce: environment.log)
        if offline {
            return (OpenWeatherProvider(requests: nil, client: nil, cache: cache, modes: modes,
                                        keyVariable: settings.apiKeyEnvironmentVariable, api: settings.api), nil, nil)
        }
        let variable = settings.apiKeyEnvironmentVariable
        guard let key = environment.variables[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            throw IsobarError(
                step: .config, path: config.file.path,
                message: "no OpenWeather API key: the environment variable \(variable) is not set",
                hint: "export \(variable)=your-key (from https://home.openweathermap.org/api_keys), or build from the cache with --offline")
        }
        let http = CurlHTTPClient(settings: httpSettings(settings))
        let budget = CallBudget(provider: ProviderKind.openweather.rawValue, limits: settings.limits,
                                cache: config.cache.directory, now: environment.now)
        let client = politeClient(http, config, budget: budget, tally: tally, environment)
        let requests = OpenWeatherRequests(baseURL: settings.baseURL, apiKey: key, language: config.language)
        return (OpenWeatherProvider(requests: requests, client: client, cache: cache, modes: modes,
                                    keyVariable: variable, api: settings.api), http, budget)
    }
}
