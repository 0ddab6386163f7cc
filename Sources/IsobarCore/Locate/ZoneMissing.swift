import Foundation

extension IsobarError {
    /// The error for a city without `timezone:`, for the build and for `isobar check`
    /// (which may not know where a geocoded city is yet: then the hint names a zone only
    /// when the country has one). `why`: what needs the zone (`WeatherService.zoneRequiredBy`).
    static func zoneMissing(_ city: CityConfig, latitude: Double?, longitude: Double?, step: BuildStep, path: String,
                            location: SourceLocation? = nil, why: String) -> IsobarError {
        var hint = "add `timezone:` with the city's IANA zone to \(city.name) in the config"
        let zones = CountryZones.system()?.zones(in: city.country) ?? []
        let nearest = zones.count == 1 ? zones.first
            : latitude.flatMap { latitude in longitude.flatMap { CountryZones.nearest(zones, latitude: latitude, longitude: $0) } }
        if let nearest {
            hint += zones.count == 1
                ? ": `timezone: \(nearest.identifier)`, \(city.country)'s only zone"
                : ", probably `timezone: \(nearest.identifier)` (of \(city.country)'s \(zones.count) zones, the one whose reference city is nearest: check it)"
        }
        return IsobarError(
            step: step, path: path, location: location,
            message: "\(why), and \(city.name) (\(city.country)) has no `timezone:` (local hours and days need one)",
            hint: hint)
    }
}
