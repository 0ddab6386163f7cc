import Foundation

/// The Locate stage: gives every city coordinates. Cities with `lat`/`lon` in the config
/// keep them; others take the first match of their stored geocoding answer
/// (`geocode.json`), which is kept for good once obtained.
public struct Locator: Sendable {
    public var store: ResponseStore

    public init(store: ResponseStore) {
        self.store = store
    }

    /// The city with coordinates filled in when a stored answer has them; unchanged when
    /// there is none (a snapshot is keyed by slug and carries its own coordinates).
    public func locate(_ city: CityConfig) throws -> CityConfig {
        guard city.coordinates == nil, let response = try store.read(slug: city.slug, endpoint: .geocode) else {
            return city
        }
        let matches = try OpenWeatherDecoder(units: city.units).geocode(response)
        guard let best = matches.first(where: { $0.country.uppercased() == city.country }) ?? matches.first else {
            throw IsobarError(
                step: .locate, path: response.file?.path,
                message: "\(city.name), \(city.country): the geocoding answer has no match",
                hint: "check the spelling, or give the city `lat:` and `lon:`")
        }
        var located = city
        located.latitude = best.lat
        located.longitude = best.lon
        return located
    }
}
