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
        guard let service = ServiceRegistry.service(kind) else {
            return (.init(kind: kind, provider: SnapshotProvider(directory: config.snapshotDirectory),
                          locator: Locator(store: ResponseStore(root: config.snapshotDirectory), geocoder: nil, required: false)), nil)
        }
        if service.contactRequiredBy != nil, service.contact(config) == nil {
            // The config refuses a site without one, so this only guards a config made in code.
            throw IsobarError(step: .config, path: config.file.path, message: "provider: \(kind.rawValue) needs a contact",
                              hint: "add `contact: you@example.org` at the top level of \(config.file.lastPathComponent)")
        }
        return try service.member(config, Context(config: config, live: live, environment: environment))
    }

    /// What a service is made with: the run's one client and rate limiter (nil offline),
    /// its cache, and the clock and log.
    struct Context {
        var config: SiteConfig
        var live: Live?
        var environment: BuildEnvironment

        var cache: ResponseCache { ProviderSetup.responseCache(config, environment) }

        /// The service's way to the network with its own call budget; nil offline.
        func polite(_ kind: ProviderKind, limits: CallLimits) -> (client: PoliteClient, budget: CallBudget)? {
            live.map { ProviderSetup.politeClient($0, kind, limits: limits, config, environment) }
        }

        /// For a service without a geocoder: cities without `lat`/`lon` are located by the
        /// registry's keyless one, through the service's client (nil offline); those few
        /// lookups, kept for good, are left out of its budget (they are not its requests).
        func borrowedLocator(cache: ResponseCache, client: PoliteClient?) -> Locator {
            var geocodingClient = client
            geocodingClient?.budget = nil
            return ServiceRegistry.geocoder.locator(config, cache: cache, client: geocodingClient)
        }
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
}
