import Foundation

/// The NWS's alerts for a point: `GET <base_url>/alerts/active?point=<lat>,<lon>`, GeoJSON,
/// stored as the city's `nws-alerts.json`. The NWS asks every client for a User-Agent that
/// says who it is and how to reach them (https://www.weather.gov/documentation/services-web-api).
struct NWSAlertsSource: WarningSource {
    var baseURL: URL
    var contact: String
    var kind: WarningSourceKind { .nws }

    var userAgent: String { "isobar/\(Version.isobar) \(contact)" }

    func location(for city: CityConfig) -> (folder: String, endpoint: Endpoint) { (city.slug, .nwsAlerts) }

    func request(for city: CityConfig) -> HTTPRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = base + Endpoint.nwsAlerts.apiPath
        // The API refuses more than four decimals (and answers 301 to trailing zeros).
        let point = "\(MetNorwayRequests.coordinate(city.latitude ?? 0)),\(MetNorwayRequests.coordinate(city.longitude ?? 0))"
        components.queryItems = [.init(name: "point", value: point)]
        return HTTPRequest(url: components.url!, headers: ["Accept": "application/geo+json", "User-Agent": userAgent], endpoint: .nwsAlerts)
    }

    func validate(_ body: Data) throws {
        do {
            _ = try NWSAlertDecoder().alerts(body)
        } catch let error as IsobarError {
            throw IsobarError(step: .fetch, message: "NWS \(Endpoint.nwsAlerts.apiPath): malformed response: \(error.message)")
        }
    }

    func failure(_ failure: RequestFailure) -> IsobarError {
        let what = "NWS alerts"
        switch failure.cause {
        case .transport(let transport):
            return IsobarError(step: .fetch, message: "\(what): service unreachable\(failure.afterAttempts): \(transport.summary)",
                               hint: "check the network and `nws.base_url`; the next run will try again")
        case .status(let response) where response.status == 403:
            return IsobarError(step: .fetch, message: "\(what): the NWS refused the request (HTTP 403); it was sent as User-Agent \"\(userAgent)\"",
                               hint: "make `contact:` (or `nws.contact`) an e-mail or web address where you can be reached")
        case .status(let response):
            return IsobarError(step: .fetch, message: "\(what): HTTP \(response.status)\(failure.afterAttempts)",
                               hint: "the next run will try again")
        }
    }
}
