import Foundation

extension ProviderKind {
    public static let weatherKit = ProviderKind(name: "weatherkit")
}

extension Endpoint {
    /// Apple WeatherKit REST `/api/v1/weather/…`: current, hourly, daily, next hour and
    /// alerts in one body.
    public static let weatherKit = Endpoint("weatherkit", path: "/api/v1/weather", service: "weatherkit")
}

/// Apple's WeatherKit REST API: a signed token from the developer's key. It has no
/// geocoder.
enum WeatherKitService: WeatherService {
    static let kind = ProviderKind.weatherKit
    static let name = "Apple WeatherKit"
    static let block = "weatherkit"

    static func load(_ value: YAMLValue?, _ context: ServiceConfigContext, into config: inout SiteConfig) throws {
        // Required at the first `provider:` that names weatherkit, the site's or a city's.
        config.weatherKit = try ConfigLoader.loadWeatherKit(value, required: context.firstChain(naming: kind), folder: context.folder)
    }
    static let endpoints: [Endpoint] = [.weatherKit]
    static let wholeForecasts: [Endpoint] = [.weatherKit]
    static let keptForGood: [Endpoint] = []
    static let forecastFiles = "weatherkit.json"
    /// Apple's terms: the Apple Weather mark ("\u{F8FF} Weather") and a link to the legal
    /// attribution page of its data sources (https://developer.apple.com/weatherkit/data-source-attribution/).
    static let attribution = LayoutModel.Attribution(name: "\u{F8FF}\u{00A0}Weather", url: "https://weatherkit.apple.com/legal-attribution.html",
                                                     license: nil, licenseURL: nil)

    /// The request needs the zone as well.
    static let zoneReason = "Apple WeatherKit rolls hours up into days in the zone it is sent"
    static var zoneRequiredBy: String? { zoneReason }

    /// As the build would: the key loads.
    static func check(_ config: SiteConfig, now: Date) -> (errors: [IsobarError], warnings: [String]) {
        guard isUsed(config) else { return ([], []) }
        do {
            _ = try WeatherKitToken(config.weatherKit, variables: ProcessInfo.processInfo.environment, config: config.file)
            return ([], [])
        } catch {
            return ([SiteChecker.userError(error)], [])
        }
    }

    static func limits(_ config: SiteConfig) -> (CallLimits, key: String) { (config.weatherKit.limits, "weatherkit") }

    /// Every data set in one body.
    static func callsPerRefresh(_ config: SiteConfig) -> Int { 1 }

    /// The key is read and checked once, before any city (a key that does not load fails
    /// the run, as a missing OpenWeather key does), and one token is made from it for the
    /// run. Offline neither is needed.
    static func member(_ config: SiteConfig, _ setup: ProviderSetup.Context) throws -> ProviderSetup.Made {
        let settings = config.weatherKit
        let cache = setup.cache
        let requests = WeatherKitRequests(baseURL: settings.baseURL, language: config.language, forecastHours: config.forecastHours)
        let token = try setup.live.map { _ in try WeatherKitToken(settings, variables: setup.environment.variables, config: config.file) }
        let polite = setup.polite(kind, limits: settings.limits)
        let provider = WeatherKitProvider(requests: requests, token: token, client: polite?.client, cache: cache, settings: settings)
        return (.init(kind: kind, provider: provider, locator: setup.borrowedLocator(cache: cache, client: polite?.client)), polite?.budget)
    }

    /// Its conditions are mapped to OpenWeather's condition codes: their text is `owm_<code>`.
    static func forecast(_ fetched: CityResponses, describe: @escaping @Sendable (String) -> String) throws -> Forecast? {
        guard let body = fetched[.weatherKit] else { return nil }
        return try WeatherKitDecoder(describe: { describe("owm_\($0)") }).forecast(body, city: fetched.city)
    }
}

extension WeatherKitToken {
    /// The token maker for the config's `weatherkit:` block, its key loaded (for the build
    /// and for `isobar check`). The config loader has made sure every id is there.
    convenience init(_ settings: WeatherKitSettings, variables: [String: String], config: URL) throws {
        guard let teamID = settings.teamID, let serviceID = settings.serviceID, let keyID = settings.keyID, let source = settings.key else {
            throw IsobarError(step: .config, path: config.path, message: "provider: weatherkit needs team_id, service_id, key_id and private_key_file under `weatherkit:`")
        }
        self.init(teamID: teamID, serviceID: serviceID, keyID: keyID, key: try WeatherKitKey.load(source, variables: variables))
    }
}
