import Foundation

extension ProviderKind {
    public static let nws = ProviderKind(name: "nws")
}

extension Endpoint {
    /// NWS `/points/{lat},{lon}`: the grid's forecast URLs and the time zone, kept for good.
    public static let nwsPoints = Endpoint("nws-points", path: "/points", service: "nws")
    // The three grid URLs are the ones `/points` names.
    /// NWS hourly forecast periods (`forecastHourly` of the point).
    public static let nwsForecastHourly = Endpoint("nws-forecast-hourly", path: "/gridpoints/…/forecast/hourly", service: "nws")
    /// NWS 12-hour forecast periods, with their text (`forecast` of the point).
    public static let nwsForecast = Endpoint("nws-forecast", path: "/gridpoints/…/forecast", service: "nws")
    /// NWS raw grid data: amounts, sky cover, gusts (`forecastGridData` of the point).
    public static let nwsGrid = Endpoint("nws-grid", path: "/gridpoints/…", service: "nws")
    /// NWS `/alerts/active?point=`: the warnings in force at the city (GeoJSON).
    public static let nwsAlerts = Endpoint("nws-alerts", path: "/alerts/active", service: "nws")
}

/// The US National Weather Service's API: keyless, but its documentation asks for a
/// User-Agent that identifies the application and a contact. It has no geocoder.
enum NWSService: WeatherService {
    static let kind = ProviderKind.nws
    static let name = "NWS"
    static let block = "nws"

    static func load(_ value: YAMLValue?, _ context: ServiceConfigContext, into config: inout SiteConfig) throws {
        config.nws = try ConfigLoader.loadIdentifiedService(value, NWSSettings())
    }
    static let endpoints: [Endpoint] = [.nwsPoints, .nwsForecastHourly, .nwsForecast, .nwsGrid, .nwsAlerts]
    /// The hourly periods, with the point's `nws-points.json`, which the decoder asks for.
    static let wholeForecasts: [Endpoint] = [.nwsForecastHourly]
    static let keptForGood: [Endpoint] = [.nwsPoints]
    static let forecastFiles = "nws-forecast-hourly.json with nws-points.json"
    /// A work of the US government: public domain, no licence to name.
    static let attribution = LayoutModel.Attribution(name: "National Weather Service (NOAA)", url: "https://www.weather.gov/", license: nil, licenseURL: nil)
    static let contactRequiredBy: String? = "the NWS API's documentation asks every request to identify the application and a contact"

    /// NWS answers a point elsewhere with 404: said before a build fails the city (or, in
    /// a chain, asks NWS in vain each time before the next provider). Its warnings need
    /// the contact too.
    static func check(_ config: SiteConfig, now: Date) -> (errors: [IsobarError], warnings: [String]) {
        var warnings: [String] = []
        if config.provider != .snapshot, !config.nwsCitiesWithoutContact.isEmpty {
            let names = config.nwsCitiesWithoutContact.map(\.name).joined(separator: ", ")
            warnings.append("\(config.file.path): no official warnings for \(names): the NWS issues them and asks every request to carry a contact; add `contact: you@example.org` at the top level (or `nws: { contact: … }`)")
        }
        warnings += config.cities.filter { !NWSRequests.countries.contains($0.country) && config.providers(for: $0).contains(kind) }.map {
            let chained = config.providers(for: $0).count > 1
            return IsobarError(step: .config, path: config.file.path, location: $0.listedAt,
                               message: "\($0.name) (\($0.country)) is outside the United States: NWS forecasts only the US and its territories, so "
                                   + (chained ? "each build asks NWS in vain before the next provider of its chain" : "its build will fail"),
                               hint: chained ? "give the city its own `provider:` without nws" : "for cities outside the US use `provider: open-meteo` or `met-norway`")
                .description(label: nil)
        }
        return ([], warnings)
    }

    static func contact(_ config: SiteConfig) -> String? { config.nws.contact ?? config.contact }
    static func limits(_ config: SiteConfig) -> (CallLimits, key: String) { (config.nws.limits, "nws") }

    /// The hourly and 12-hour forecasts and the grid data (`/points` once per city).
    static func callsPerRefresh(_ config: SiteConfig) -> Int { 3 }

    static func member(_ config: SiteConfig, _ setup: ProviderSetup.Context) throws -> ProviderSetup.Made {
        let cache = setup.cache
        let requests = NWSRequests(baseURL: config.nws.baseURL, contact: contact(config) ?? "")
        let polite = setup.polite(kind, limits: config.nws.limits)
        return (.init(kind: kind, provider: NWSProvider(requests: requests, client: polite?.client, cache: cache),
                      locator: setup.borrowedLocator(cache: cache, client: polite?.client)), polite?.budget)
    }

    /// Its icons are mapped to OpenWeather's condition codes: their text is `owm_<code>`.
    static func forecast(_ fetched: CityResponses, describe: @escaping @Sendable (String) -> String) throws -> Forecast? {
        guard let hourly = fetched[.nwsForecastHourly] else { return nil }
        return try NWSDecoder(describe: { describe("owm_\($0)") })
            .forecast(points: fetched[.nwsPoints], hourly: hourly, periods: fetched[.nwsForecast], grid: fetched[.nwsGrid], city: fetched.city)
    }
}
