/// The API responses Isobar stores, named as their files in the cache and in snapshots
/// (`<dir>/<slug>/<endpoint>.json`, DESIGN.md "Response cache and snapshots").
public enum Endpoint: String, Sendable, CaseIterable, Codable {
    /// One Call 3.0: current, hourly, daily and alerts in one body.
    case oneCall = "onecall"
    /// Free 2.5 current weather.
    case currentWeather = "weather"
    /// Free 2.5 5-day / 3-hour forecast.
    case fiveDayForecast = "forecast"
    case airPollution = "air_pollution"
    /// Geocoding `/geo/1.0/direct`, kept for good once a city is located.
    case geocode
    /// Open-Meteo `/v1/forecast`: current, hourly and daily in one body.
    case openMeteoForecast = "open-meteo-forecast"
    /// Open-Meteo `/v1/air-quality`.
    case openMeteoAirQuality = "open-meteo-air-quality"
    /// Open-Meteo geocoding `/v1/search`, kept for good.
    case openMeteoGeocode = "open-meteo-geocode"
    /// MET Norway Locationforecast 2.0, the `complete` product: current, hourly and
    /// 6-hourly steps in one GeoJSON body (no zone, no daily block).
    case metNorwayForecast = "met-norway-forecast"
    /// NWS `/points/{lat},{lon}`: the grid's forecast URLs and the time zone, kept for good.
    case nwsPoints = "nws-points"
    /// NWS hourly forecast periods (`forecastHourly` of the point).
    case nwsForecastHourly = "nws-forecast-hourly"
    /// NWS 12-hour forecast periods, with their text (`forecast` of the point).
    case nwsForecast = "nws-forecast"
    /// NWS raw grid data: amounts, sky cover, gusts (`forecastGridData` of the point).
    case nwsGrid = "nws-grid"
    /// Apple WeatherKit REST `/api/v1/weather/…`: current, hourly, daily, next hour and
    /// alerts in one body.
    case weatherKit = "weatherkit"
    /// NWS `/alerts/active?point=`: the warnings in force at the city (GeoJSON).
    case nwsAlerts = "nws-alerts"
    /// MeteoAlarm's `feeds-<country>`: every warning of one country (CAP as JSON), kept once
    /// per country in a folder of its own (`MeteoAlarmSource.folder`), not per city.
    case meteoAlarmWarnings = "meteoalarm-warnings"
    /// Open-Meteo's historical weather API `/v1/archive` (ERA5): 1991–2020 daily highs
    /// and lows, asked once per city for its climate normals and kept for good.
    case openMeteoArchive = "open-meteo-archive"

    /// The API path, for requests and for messages (it holds no secret).
    public var apiPath: String {
        switch self {
        case .oneCall: return "/data/3.0/onecall"
        case .currentWeather: return "/data/2.5/weather"
        case .fiveDayForecast: return "/data/2.5/forecast"
        case .airPollution: return "/data/2.5/air_pollution"
        case .geocode: return "/geo/1.0/direct"
        case .openMeteoForecast: return "/v1/forecast"
        case .openMeteoAirQuality: return "/v1/air-quality"
        case .openMeteoGeocode: return "/v1/search"
        case .metNorwayForecast: return "/weatherapi/locationforecast/2.0/complete"
        // The three grid URLs are the ones `/points` names.
        case .nwsPoints: return "/points"
        case .nwsForecastHourly: return "/gridpoints/…/forecast/hourly"
        case .nwsForecast: return "/gridpoints/…/forecast"
        case .nwsGrid: return "/gridpoints/…"
        case .weatherKit: return "/api/v1/weather"
        case .nwsAlerts: return "/alerts/active"
        case .meteoAlarmWarnings: return "/api/v1/warnings"
        case .openMeteoArchive: return "/v1/archive"
        }
    }

    /// The service that answers it, by its config name, for the report's requests per
    /// provider (Open-Meteo's geocoder, which MET Norway's cities are located with, is
    /// Open-Meteo's; MeteoAlarm is a warning source, not a forecast provider).
    public var service: String {
        switch self {
        case .oneCall, .currentWeather, .fiveDayForecast, .airPollution, .geocode: return ProviderKind.openweather.rawValue
        case .openMeteoForecast, .openMeteoAirQuality, .openMeteoGeocode, .openMeteoArchive: return ProviderKind.openMeteo.rawValue
        case .metNorwayForecast: return ProviderKind.metNorway.rawValue
        case .nwsPoints, .nwsForecastHourly, .nwsForecast, .nwsGrid, .nwsAlerts: return ProviderKind.nws.rawValue
        case .weatherKit: return ProviderKind.weatherKit.rawValue
        case .meteoAlarmWarnings: return WarningSourceKind.meteoalarm.rawValue
        }
    }

    public var fileName: String { rawValue + ".json" }

    /// The forecast bodies a page can be built from on its own (NWS's hourly one with the
    /// point's `nws-points.json`, which the decoder asks for); the free API's pair
    /// (`weather` + `forecast`) is the other way to one.
    public static let wholeForecasts: [Endpoint] = [.oneCall, .openMeteoForecast, .metNorwayForecast, .nwsForecastHourly, .weatherKit]

    /// What a city's folder needs, for messages: "onecall.json, weather.json and
    /// forecast.json, open-meteo-forecast.json, met-norway-forecast.json or …".
    public static let forecastFilesExpected =
        "onecall.json, weather.json and forecast.json, open-meteo-forecast.json, met-norway-forecast.json, nws-forecast-hourly.json with nws-points.json, or weatherkit.json"

    /// Answers kept for good once fetched (where a city is): not a refresh's requests.
    public static let keptForGood: [Endpoint] = [.geocode, .openMeteoGeocode, .nwsPoints, .openMeteoArchive]
}
