import Foundation

extension ProviderKind {
    public static let metNorway = ProviderKind(name: "met-norway")
}

extension Endpoint {
    /// MET Norway Locationforecast 2.0, the `complete` product: current, hourly and
    /// 6-hourly steps in one GeoJSON body (no zone, no daily block).
    public static let metNorwayForecast = Endpoint("met-norway-forecast", path: "/weatherapi/locationforecast/2.0/complete", service: "met-norway")
}

/// MET Norway's Locationforecast: keyless, but its terms ask every request to say who
/// sends it. It has no geocoder.
enum MetNorwayService: WeatherService {
    static let kind = ProviderKind.metNorway
    static let name = "MET Norway"
    static let block = "met_norway"

    static func load(_ value: YAMLValue?, _ context: ServiceConfigContext, into config: inout SiteConfig) throws {
        config.metNorway = try ConfigLoader.loadIdentifiedService(value, MetNorwaySettings())
    }
    static let endpoints: [Endpoint] = [.metNorwayForecast]
    static let wholeForecasts: [Endpoint] = [.metNorwayForecast]
    static let keptForGood: [Endpoint] = []
    static let forecastFiles = "met-norway-forecast.json"
    /// MET Norway asks for "MET Norway" and its licence (https://api.met.no/doc/License).
    static let attribution = LayoutModel.Attribution(name: "MET Norway", url: "https://api.met.no/",
                                                     license: "CC BY 4.0", licenseURL: "https://api.met.no/doc/License")
    static let contactRequiredBy: String? = "MET Norway's terms ask every request to say who sends it"

    static let zoneReason = "MET Norway's forecasts name no time zone"
    static var zoneRequiredBy: String? { zoneReason }

    static func contact(_ config: SiteConfig) -> String? { config.metNorway.contact ?? config.contact }
    static func limits(_ config: SiteConfig) -> (CallLimits, key: String) { (config.metNorway.limits, "met_norway") }

    /// `complete` alone; fewer in fact, since none goes before MET's `Expires`.
    static func callsPerRefresh(_ config: SiteConfig) -> Int { 1 }

    static func member(_ config: SiteConfig, _ setup: ProviderSetup.Context) throws -> ProviderSetup.Made {
        let cache = setup.cache
        let requests = MetNorwayRequests(baseURL: config.metNorway.baseURL, contact: contact(config) ?? "")
        let polite = setup.polite(kind, limits: config.metNorway.limits)
        let clock = setup.environment.clock
        let offTheHour = setup.live.map { _ in OffTheHour(sleep: { try await clock.sleep($0) }, announce: setup.environment.log) }
        let provider = MetNorwayProvider(requests: requests, client: polite?.client, cache: cache, offTheHour: offTheHour, log: setup.environment.log)
        return (.init(kind: kind, provider: provider, locator: setup.borrowedLocator(cache: cache, client: polite?.client)), polite?.budget)
    }

    /// Its symbols are mapped to OpenWeather's condition codes: their text is `owm_<code>`.
    static func forecast(_ fetched: CityResponses, describe: @escaping @Sendable (String) -> String) throws -> Forecast? {
        guard let body = fetched[.metNorwayForecast] else { return nil }
        return try MetNorwayDecoder(describe: { describe("owm_\($0)") }).forecast(body, city: fetched.city)
    }
}
