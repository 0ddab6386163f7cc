import Foundation

/// Builds OpenWeather request URLs. The key goes in `appid` and nowhere else; whatever
/// shows a URL to a person masks it (`Redaction`).
public struct OpenWeatherRequests: Sendable {
    public var baseURL: URL
    public var apiKey: String
    public var language: String

    public init(baseURL: URL, apiKey: String, language: String) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.language = language
    }

    /// The API path for an endpoint, also used in messages (it holds no secret).
    public static func path(for endpoint: Endpoint) -> String { endpoint.apiPath }

    public func request(_ endpoint: Endpoint, for city: CityConfig) -> HTTPRequest {
        var items: [URLQueryItem] = []
        switch endpoint {
        case .geocode:
            // OpenWeather takes a state only for US cities; elsewhere it spoils the match.
            let state = city.country == "US" ? city.state : nil
            let query = [city.name, state, city.country].compactMap { $0 }.joined(separator: ",")
            items = [.init(name: "q", value: query), .init(name: "limit", value: "5")]
        case .airPollution:
            items = coordinates(city)
        case .oneCall:
            // `minutely` (the next hour's precipitation) is kept: the page's nowcast.
            items = coordinates(city) + unitsAndLanguage(city)
        default:
            // The free pair (`weather`, `forecast`); other providers' endpoints are never
            // asked of OpenWeather, so adding a provider touches no file of OpenWeather's.
            items = coordinates(city) + unitsAndLanguage(city)
        }
        items.append(.init(name: "appid", value: apiKey))
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + Self.path(for: endpoint)
        components.queryItems = items
        // URLComponents leaves "+" alone, which servers read as a space; encode it.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return HTTPRequest(url: components.url!, headers: ["Accept": "application/json"], endpoint: endpoint)
    }

    private func coordinates(_ city: CityConfig) -> [URLQueryItem] {
        [.init(name: "lat", value: FixedPoint.format(city.latitude ?? 0, digits: 4)),
         .init(name: "lon", value: FixedPoint.format(city.longitude ?? 0, digits: 4))]
    }

    private func unitsAndLanguage(_ city: CityConfig) -> [URLQueryItem] {
        [.init(name: "units", value: city.units.rawValue), .init(name: "lang", value: language)]
    }
}
