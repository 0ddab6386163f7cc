import Foundation

/// Builds WeatherKit REST requests (`GET /api/v1/weather/{language}/{latitude}/{longitude}`,
/// https://developer.apple.com/documentation/weatherkitrestapi/get-api-v1-weather-_language_-_latitude_-_longitude_):
/// every data set a page shows in one body, days rolled up in the city's zone (`timezone`
/// is required), alerts for its country (`countryCode` is what alerts need). The token
/// goes in the `Authorization` header, never in the URL, so that what is logged or
/// reported about a request holds no secret.
public struct WeatherKitRequests: Sendable {
    public var baseURL: URL
    /// The site's language, as the language tag the path takes (`en`, `pt-BR`).
    public var language: String
    /// Hourly steps from the current hour (`SiteConfig.forecastHours`): without `hourlyEnd`
    /// Apple sends as many hours as the ten days have, three times what is used.
    public var forecastHours: Int

    public init(baseURL: URL, language: String, forecastHours: Int) {
        self.baseURL = baseURL
        self.language = Strings.htmlLanguage(language)
        self.forecastHours = forecastHours
    }

    static let dataSets = "currentWeather,forecastHourly,forecastDaily,forecastNextHour,weatherAlerts"

    /// `zone`: the city's IANA zone (`CityConfig.timeZone`, which such a city must have).
    /// `now`: the wall clock, from which `hourlyEnd` is counted.
    public func request(for city: CityConfig, zone: String, token: String, now: Date = Date()) -> HTTPRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        let latitude = FixedPoint.format(city.latitude ?? 0, digits: 4), longitude = FixedPoint.format(city.longitude ?? 0, digits: 4)
        components.path = basePath + Endpoint.weatherKit.apiPath + "/\(language)/\(latitude)/\(longitude)"
        components.queryItems = [.init(name: "dataSets", value: Self.dataSets), .init(name: "timezone", value: zone),
                                 .init(name: "countryCode", value: city.country),
                                 .init(name: "hourlyEnd", value: now.addingTimeInterval(Double(forecastHours) * 3600).formatted(.iso8601))]
        return HTTPRequest(url: components.url!, headers: ["Accept": "application/json", "Authorization": "Bearer \(token)"],
                           endpoint: .weatherKit)
    }
}
