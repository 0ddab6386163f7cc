import Foundation

extension ProviderKind {
    public static let openMeteo = ProviderKind(name: "open-meteo")
}

extension Endpoint {
    /// Open-Meteo `/v1/forecast`: current, hourly and daily in one body.
    public static let openMeteoForecast = Endpoint("open-meteo-forecast", path: "/v1/forecast", service: "open-meteo")
    /// Open-Meteo `/v1/air-quality`.
    public static let openMeteoAirQuality = Endpoint("open-meteo-air-quality", path: "/v1/air-quality", service: "open-meteo")
    /// Open-Meteo geocoding `/v1/search`, kept for good.
    public static let openMeteoGeocode = Endpoint("open-meteo-geocode", path: "/v1/search", service: "open-meteo")
    /// Open-Meteo's historical weather API `/v1/archive` (ERA5): 1991–2020 daily highs
    /// and lows, asked once per city for its climate normals and kept for good.
    public static let openMeteoArchive = Endpoint("open-meteo-archive", path: "/v1/archive", service: "open-meteo")
}

/// Open-Meteo: forecast and air quality, keyless; its geocoder also locates the cities of
/// the services that have none.
enum OpenMeteoService: GeocodingService {
    static let kind = ProviderKind.openMeteo
    static let name = "Open-Meteo"
    static let block = "open_meteo"

    static func load(_ value: YAMLValue?, _ context: ServiceConfigContext, into config: inout SiteConfig) throws {
        config.openMeteo = try ConfigLoader.loadOpenMeteo(value)
    }
    static let endpoints: [Endpoint] = [.openMeteoForecast, .openMeteoAirQuality, .openMeteoGeocode, .openMeteoArchive]
    static let wholeForecasts: [Endpoint] = [.openMeteoForecast]
    static let keptForGood: [Endpoint] = [.openMeteoGeocode, .openMeteoArchive]
    static let forecastFiles = "open-meteo-forecast.json"
    static let attribution = LayoutModel.Attribution(name: "Open-Meteo.com", url: "https://open-meteo.com/",
                                                     license: "CC BY 4.0", licenseURL: "https://creativecommons.org/licenses/by/4.0/")

    static func limits(_ config: SiteConfig) -> (CallLimits, key: String) { (config.openMeteo.limits, "open_meteo") }

    /// The forecast and air quality.
    static func callsPerRefresh(_ config: SiteConfig) -> Int { 2 }

    static func member(_ config: SiteConfig, _ setup: ProviderSetup.Context) throws -> ProviderSetup.Made {
        let polite = setup.polite(kind, limits: config.openMeteo.limits)
        let cache = setup.cache
        let provider = OpenMeteoProvider(requests: requests(config), client: polite?.client, cache: cache)
        return (.init(kind: kind, provider: provider, locator: Locator(store: cache.store, geocoder: provider, required: true, endpoint: .openMeteoGeocode)),
                polite?.budget)
    }

    static func locator(_ config: SiteConfig, cache: ResponseCache, client: PoliteClient?) -> Locator {
        Locator(store: cache.store, geocoder: OpenMeteoProvider(requests: requests(config), client: client, cache: cache),
                required: true, endpoint: .openMeteoGeocode)
    }

    private static func requests(_ config: SiteConfig) -> OpenMeteoRequests {
        OpenMeteoRequests(settings: config.openMeteo, language: config.language, forecastHours: config.forecastHours)
    }

    /// Open-Meteo sends WMO codes, not words: their text is the strings' `wmo_<code>`.
    static func forecast(_ fetched: CityResponses, describe: @escaping @Sendable (String) -> String) throws -> Forecast? {
        guard let body = fetched[.openMeteoForecast] else { return nil }
        let decoder = OpenMeteoDecoder(units: fetched.city.units, describe: { describe("wmo_\($0)") })
        var forecast = try decoder.forecast(body, city: fetched.city)
        if let air = fetched[.openMeteoAirQuality] {
            forecast.airQuality = try decoder.airQuality(air)
        }
        return forecast
    }
}
