import Foundation

/// Builds Open-Meteo request URLs (no key). Every variable a page shows that Open-Meteo
/// has is asked for, in the city's units.
public struct OpenMeteoRequests: Sendable {
    public var settings: OpenMeteoSettings
    public var language: String
    /// Hourly steps from the current hour (`SiteConfig.forecastHours`).
    public var forecastHours: Int

    public init(settings: OpenMeteoSettings, language: String, forecastHours: Int) {
        self.settings = settings
        self.language = language
        self.forecastHours = forecastHours
    }

    static let current = "temperature_2m,relative_humidity_2m,apparent_temperature,dew_point_2m,is_day,precipitation,rain,showers,snowfall,weather_code,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m,visibility,uv_index"
    static let hourly = "temperature_2m,apparent_temperature,relative_humidity_2m,precipitation_probability,rain,showers,snowfall,weather_code,wind_speed_10m,wind_direction_10m,wind_gusts_10m,is_day,pressure_msl,dew_point_2m,uv_index,cloud_cover,visibility"
    static let daily = "weather_code,temperature_2m_max,temperature_2m_min,sunrise,sunset,precipitation_probability_max,rain_sum,showers_sum,snowfall_sum,wind_speed_10m_max,wind_direction_10m_dominant,uv_index_max,wind_gusts_10m_max"
    static let airQuality = "european_aqi,pm10,pm2_5,nitrogen_dioxide,ozone,sulphur_dioxide,carbon_monoxide"

    public func request(_ endpoint: Endpoint, for city: CityConfig) -> HTTPRequest {
        let base: URL
        var items: [URLQueryItem]
        let coordinates = [URLQueryItem(name: "latitude", value: FixedPoint.format(city.latitude ?? 0, digits: 4)),
                           URLQueryItem(name: "longitude", value: FixedPoint.format(city.longitude ?? 0, digits: 4))]
        switch endpoint {
        case .openMeteoGeocode:
            base = settings.geocodingURL
            items = [.init(name: "name", value: city.name), .init(name: "count", value: "10"),
                     .init(name: "language", value: language), .init(name: "format", value: "json")]
        case .openMeteoAirQuality:
            base = settings.airQualityURL
            items = coordinates + [.init(name: "current", value: Self.airQuality), .init(name: "timezone", value: "auto"),
                                   .init(name: "timeformat", value: "unixtime")]
        default:
            base = settings.baseURL
            let imperial = city.units == .imperial
            items = coordinates + [
                .init(name: "current", value: Self.current), .init(name: "hourly", value: Self.hourly),
                .init(name: "daily", value: Self.daily), .init(name: "timezone", value: "auto"),
                // Two hours of quarter-hour precipitation: the page's nowcast.
                .init(name: "minutely_15", value: "precipitation"), .init(name: "forecast_minutely_15", value: "8"),
                .init(name: "timeformat", value: "unixtime"), .init(name: "forecast_days", value: "8"),
                .init(name: "forecast_hours", value: String(forecastHours)),
                .init(name: "temperature_unit", value: imperial ? "fahrenheit" : "celsius"),
                .init(name: "wind_speed_unit", value: imperial ? "mph" : "ms"),
                .init(name: "precipitation_unit", value: imperial ? "inch" : "mm"),
            ]
        }
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + endpoint.apiPath
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return HTTPRequest(url: components.url!, headers: ["Accept": "application/json"], endpoint: endpoint)
    }
}
