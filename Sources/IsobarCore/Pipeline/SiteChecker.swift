import Foundation

/// `isobar check`: loads everything a build would load before fetching, and stops there.
public struct SiteChecker: Sendable {
    public init() {}

    public func check(configFile: URL) throws -> String {
        let config = try ConfigLoader.load(from: configFile)
        let places = try PlacesFile.load(from: config.placesFile)
        _ = try TemplateSet.load(from: config.templatesDirectory)
        let placeCount = places.values.reduce(0) { $0 + $1.count }
        return "ok: \(config.cities.count) cities, \(placeCount) places, templates in \(config.templatesDirectory.path)"
    }
}
