import Foundation

/// The historical weather API request for a city's normals: 1991–2020 daily highs and
/// lows at its coordinates, in °C, by its local calendar day (`timezone`).
struct NormalsRequests: Sendable {
    var archiveURL: URL

    func request(for city: CityConfig) -> HTTPRequest {
        var components = URLComponents(url: archiveURL, resolvingAgainstBaseURL: false)!
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + Endpoint.openMeteoArchive.apiPath
        components.queryItems = [
            .init(name: "latitude", value: FixedPoint.format(city.latitude ?? 0, digits: 4)),
            .init(name: "longitude", value: FixedPoint.format(city.longitude ?? 0, digits: 4)),
            .init(name: "start_date", value: ArchiveNormals.firstDay), .init(name: "end_date", value: ArchiveNormals.lastDay),
            .init(name: "daily", value: "temperature_2m_max,temperature_2m_min"),
            .init(name: "timezone", value: city.timeZone ?? "auto"),
        ]
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return HTTPRequest(url: components.url!, headers: ["Accept": "application/json"], endpoint: .openMeteoArchive)
    }
}
