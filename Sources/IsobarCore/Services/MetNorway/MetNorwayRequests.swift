import Foundation

/// Builds MET Norway Locationforecast 2.0 requests as its terms ask: the `complete`
/// product at no more than four decimals (finer coordinates are refused, and defeat MET's
/// own caching), an identifying User-Agent with the site's contact, and
/// `If-Modified-Since` with the last answer's `Last-Modified`, verbatim.
public struct MetNorwayRequests: Sendable {
    public var baseURL: URL
    public var contact: String

    public init(baseURL: URL, contact: String) {
        self.baseURL = baseURL
        self.contact = contact
    }

    /// "AcmeWeatherApp/0.9 github.com/acmeweatherapp" is the form MET's terms give.
    public var userAgent: String { "isobar/\(Version.isobar) \(contact)" }

    /// At most four decimals and no trailing zeros: 59.9127, 10.75, 5.
    public static func coordinate(_ value: Double) -> String { RequestCoordinate.text(value) }

    public func request(for city: CityConfig, lastModified: String?) -> HTTPRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + "/complete"
        components.queryItems = [.init(name: "lat", value: Self.coordinate(city.latitude ?? 0)),
                                 .init(name: "lon", value: Self.coordinate(city.longitude ?? 0))]
        var headers = ["Accept": "application/json", "User-Agent": userAgent]
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        // Compression is asked for by the client itself (libcurl's Accept-Encoding).
        return HTTPRequest(url: components.url!, headers: headers, endpoint: .metNorwayForecast, keptHeaders: CacheHeaders.names)
    }
}
