import Foundation

extension ProviderKind {
    public static let openweather = ProviderKind(name: "openweather")
}

extension Endpoint {
    /// One Call 3.0: current, hourly, daily and alerts in one body.
    public static let oneCall = Endpoint("onecall", path: "/data/3.0/onecall", service: "openweather")
    /// Free 2.5 current weather.
    public static let currentWeather = Endpoint("weather", path: "/data/2.5/weather", service: "openweather")
    /// Free 2.5 5-day / 3-hour forecast.
    public static let fiveDayForecast = Endpoint("forecast", path: "/data/2.5/forecast", service: "openweather")
    public static let airPollution = Endpoint("air_pollution", path: "/data/2.5/air_pollution", service: "openweather")
    /// Geocoding `/geo/1.0/direct`, kept for good once a city is located.
    public static let geocode = Endpoint("geocode", path: "/geo/1.0/direct", service: "openweather")
}

/// OpenWeather: One Call 3.0, or the free 2.5 pair (current + 5-day) for a key without it;
/// air pollution; its own geocoder. The key comes from the environment.
enum OpenWeatherService: WeatherService {
    static let kind = ProviderKind.openweather
    static let name = "OpenWeather"
    static let block = "openweather"

    static func load(_ value: YAMLValue?, _ context: ServiceConfigContext, into config: inout SiteConfig) throws {
        config.openWeather = try ConfigLoader.loadOpenWeather(value)
    }
    static let endpoints: [Endpoint] = [.oneCall, .currentWeather, .fiveDayForecast, .airPollution, .geocode]
    /// The free API's pair (`weather` + `forecast`) is the other way to a page.
    static let wholeForecasts: [Endpoint] = [.oneCall]
    static let keptForGood: [Endpoint] = [.geocode]
    static let forecastFiles = "onecall.json, weather.json and forecast.json"
    static let attribution = LayoutModel.Attribution(name: "OpenWeather", url: "https://openweathermap.org/", license: nil, licenseURL: nil)

    /// The free API's cities whose times would keep one UTC offset (`FixedOffsetCheck`).
    static func check(_ config: SiteConfig, now: Date) -> (errors: [IsobarError], warnings: [String]) {
        ([], FixedOffsetCheck(config: config, zones: CountryZones.system(), now: now).warnings().map { $0.description(label: nil) })
    }

    static func limits(_ config: SiteConfig) -> (CallLimits, key: String) { (config.openWeather.limits, "openweather") }

    /// One Call (or the free pair: current + 5-day) and air pollution.
    static func callsPerRefresh(_ config: SiteConfig) -> Int { config.openWeather.api == .free ? 3 : 2 }

    static func callsNote(_ config: SiteConfig) -> String {
        config.openWeather.api == .auto ? " (3 for a key without One Call, on the free pair)" : ""
    }

    /// The key from the environment and one mode switch for the whole run. Offline,
    /// neither is needed.
    static func member(_ config: SiteConfig, _ setup: ProviderSetup.Context) throws -> ProviderSetup.Made {
        let settings = config.openWeather
        let cache = setup.cache
        let modes = APIModeSwitch(api: settings.api, announce: setup.environment.log)
        let variable = settings.apiKeyEnvironmentVariable
        func made(_ requests: OpenWeatherRequests?, _ client: PoliteClient?) -> ProviderChain.Member {
            let provider = OpenWeatherProvider(requests: requests, client: client, cache: cache, modes: modes, keyVariable: variable, api: settings.api)
            return .init(kind: kind, provider: provider, locator: Locator(store: cache.store, geocoder: provider, required: true))
        }
        guard setup.live != nil else { return (made(nil, nil), nil) }
        guard let key = setup.environment.variables[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            throw IsobarError(
                step: .config, path: config.file.path,
                message: "no OpenWeather API key: the environment variable \(variable) is not set",
                hint: "export \(variable)=your-key (from https://home.openweathermap.org/api_keys), or build from the cache with --offline")
        }
        let polite = setup.polite(kind, limits: settings.limits)
        let requests = OpenWeatherRequests(baseURL: settings.baseURL, apiKey: key, language: config.language)
        return (made(requests, polite?.client), polite?.budget)
    }

    static func forecast(_ fetched: CityResponses, describe: @escaping @Sendable (String) -> String) throws -> Forecast? {
        let decoder = OpenWeatherDecoder(units: fetched.city.units)
        var forecast: Forecast
        if let oneCall = fetched[.oneCall] {
            forecast = try decoder.oneCall(oneCall, city: fetched.city)
        } else if let current = fetched[.currentWeather], let fiveDay = fetched[.fiveDayForecast] {
            forecast = try decoder.freePair(current: current, forecast: fiveDay, city: fetched.city)
        } else {
            return nil
        }
        if let air = fetched[.airPollution] {
            forecast.airQuality = try decoder.airPollution(air)
        }
        return forecast
    }
}
