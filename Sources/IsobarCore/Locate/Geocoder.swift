/// Asks a geocoding service where a city is; the answer is stored for good by the
/// implementation. Returns nil when it cannot ask (offline).
public protocol Geocoder: Sendable {
    func geocode(_ city: CityConfig) async throws -> RawResponse?
}
