import Foundation

extension ProviderSetup {
    /// WeatherKit: the key is read and checked once, before any city (a key that does not
    /// load fails the run, as a missing OpenWeather key does), and one token is made from
    /// it for the run. Offline neither is needed. Cities without `lat`/`lon` are located by
    /// Open-Meteo's geocoder, as for MET Norway.
    static func weatherKit(_ config: SiteConfig, live: Live?, _ environment: BuildEnvironment) throws -> Made {
        let settings = config.weatherKit
        let cache = responseCache(config, environment)
        let requests = WeatherKitRequests(baseURL: settings.baseURL, language: config.language, forecastHours: config.forecastHours)
        let token = try live.map { _ in try WeatherKitToken(settings, variables: environment.variables, config: config.file) }
        let polite = live.map { politeClient($0, .weatherKit, limits: settings.limits, config, environment) }
        let provider = WeatherKitProvider(requests: requests, token: token, client: polite?.client, cache: cache, settings: settings)
        return (.init(kind: .weatherKit, provider: provider, locator: openMeteoLocator(config, cache: cache, client: polite?.client)), polite?.budget)
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
