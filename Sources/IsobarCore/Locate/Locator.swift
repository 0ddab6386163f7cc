import Foundation

/// The Locate stage: gives every city coordinates. Cities with `lat`/`lon` in the config
/// keep them; others use their stored geocoding answer (`geocode.json`, kept for good),
/// or ask the geocoder once and keep its answer.
public struct Locator: Sendable {
    public var store: ResponseStore
    public var geocoder: (any Geocoder)?
    /// Whether a city without coordinates must be located before fetching (live APIs
    /// fetch by coordinates; snapshots are keyed by slug and carry their own).
    public var required: Bool
    /// Where the stored answer lives: `geocode` (OpenWeather) or `open-meteo-geocode`.
    public var endpoint: Endpoint

    public init(store: ResponseStore, geocoder: (any Geocoder)?, required: Bool, endpoint: Endpoint = .geocode) {
        self.store = store
        self.geocoder = geocoder
        self.required = required
        self.endpoint = endpoint
    }

    public func locate(_ city: CityConfig) async throws -> CityConfig {
        guard city.coordinates == nil else { return city }
        var answer = try store.read(slug: city.slug, endpoint: endpoint)
        if answer == nil {
            do {
                answer = try await geocoder?.geocode(city)
            } catch var error as IsobarError {
                // Named for the service asked: MET Norway's cities are located by Open-Meteo's.
                error.message = "\(endpoint.service) geocoding \(error.message)"
                throw error
            }
        }
        guard let response = answer else {
            if !required { return city }
            throw IsobarError(
                step: .locate, path: store.file(for: city.slug, endpoint).path,
                message: "no stored location, and none can be fetched offline",
                hint: "run once without --offline, or give the city `lat:` and `lon:`")
        }
        let matches = response.endpoint == .openMeteoGeocode
            ? try OpenMeteoDecoder(units: city.units, describe: { "\($0)" }).geocode(response)
            : try OpenWeatherDecoder(units: city.units).geocode(response)
        let sameCountry = matches.filter { $0.country.uppercased() == city.country }
        let sameState = sameCountry.filter { match in city.state.map { match.state?.localizedCaseInsensitiveContains($0) == true } ?? false }
        guard let best = sameState.first ?? sameCountry.first ?? matches.first else {
            throw IsobarError(
                step: .locate, path: response.file?.path,
                message: "the stored geocoding answer has no match",
                hint: "delete it to ask again, or give the city `lat:` and `lon:`")
        }
        var located = city
        located.latitude = best.lat
        located.longitude = best.lon
        return located
    }
}
