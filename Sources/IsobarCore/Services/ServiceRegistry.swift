/// The one list of the services Isobar speaks to. A new service is a folder beside these
/// and one line here; the order is the order services are offered in messages and, where
/// a folder holds several services' bodies, the order their decoders are tried.
enum ServiceRegistry {
    static let forecasts: [any WeatherService.Type] = [
        OpenWeatherService.self,
        OpenMeteoService.self,
        MetNorwayService.self,
        NWSService.self,
        WeatherKitService.self,
    ]

    /// Where the services without a geocoder of their own have their cities located.
    static let geocoder: any GeocodingService.Type = OpenMeteoService.self

    /// Every stored response: the forecast services', then the warning sources' own.
    static let endpoints: [Endpoint] = forecasts.flatMap { $0.endpoints } + [.meteoAlarmWarnings]

    static func service(_ kind: ProviderKind) -> (any WeatherService.Type)? {
        forecasts.first { $0.kind == kind }
    }

    /// The service that made a forecast, by its `Source.api` ("openweather/onecall3"
    /// is OpenWeather's).
    static func service(ofSource api: String) -> (any WeatherService.Type)? {
        let name = api.split(separator: "/", maxSplits: 1).first.map(String.init) ?? api
        return forecasts.first { $0.kind.rawValue == name }
    }
}

/// A service whose geocoder locates the cities of services that have none.
protocol GeocodingService: WeatherService {
    static func locator(_ config: SiteConfig, cache: ResponseCache, client: PoliteClient?) -> Locator
}
