import Foundation

/// Builds NWS API requests as its documentation asks
/// (https://www.weather.gov/documentation/services-web-api): a User-Agent that identifies
/// the application and a contact ("(myweatherapp.com, contact@myweatherapp.com)"; NWS
/// refuses requests without one), GeoJSON asked for, and a point at no more than four
/// decimals (NWS answers finer ones with a redirect to the rounded point).
public struct NWSRequests: Sendable {
    public var baseURL: URL
    public var contact: String

    public init(baseURL: URL, contact: String) {
        self.baseURL = baseURL
        self.contact = contact
    }

    /// Where NWS forecasts, by the config's `country:`: the 50 states and the territories
    /// with forecast offices (Puerto Rico, the Virgin Islands, Guam, the Northern Mariana
    /// Islands, American Samoa).
    static let countries: Set<String> = ["US", "PR", "VI", "GU", "MP", "AS"]

    public var userAgent: String { "isobar/\(Version.isobar) (\(contact))" }

    private var headers: [String: String] { ["Accept": "application/geo+json", "User-Agent": userAgent] }

    /// `<base_url>/points/{lat},{lon}`.
    public func points(latitude: Double, longitude: Double) -> HTTPRequest {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let url = URL(string: "\(base)/points/\(RequestCoordinate.text(latitude)),\(RequestCoordinate.text(longitude))")!
        return HTTPRequest(url: url, headers: headers, endpoint: .nwsPoints)
    }

    /// A forecast URL the point's answer named. Only one on `base_url`'s own server is
    /// asked for: a stored answer, or a server, can send the run nowhere else.
    public func forecast(_ endpoint: Endpoint, url text: String) -> HTTPRequest? {
        guard let url = URL(string: text), url.scheme?.lowercased() == baseURL.scheme?.lowercased(),
            url.host?.lowercased() == baseURL.host?.lowercased(), url.port == baseURL.port
        else { return nil }
        return HTTPRequest(url: url, headers: headers, endpoint: endpoint)
    }

    /// Whether a stored point answer is for the city's point: its coordinates as they
    /// would be asked for now (a city whose `lat:`/`lon:` changed is asked again).
    static func samePoint(_ coordinates: [Double]?, latitude: Double, longitude: Double) -> Bool {
        guard let coordinates, coordinates.count >= 2 else { return false }
        return RequestCoordinate.text(coordinates[1]) == RequestCoordinate.text(latitude)
            && RequestCoordinate.text(coordinates[0]) == RequestCoordinate.text(longitude)
    }
}
