import Foundation

/// A tourist place from `places.json`, shown on its city's page.
public struct Place: Sendable, Equatable, Decodable {
    public var name: String
    public var description: String
    public var lat: Double
    public var lon: Double
    public var wikipedia: String?
    /// A file under `Public/places/`, shown when it exists.
    public var image: String?
}

/// Loads `places.json`: an object from city slug to a list of places.
/// A missing file means no places, not an error: the section is optional.
public enum PlacesFile {
    public static func load(from file: URL) throws -> [String: [Place]] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw IsobarError(step: .config, path: file.path, message: "cannot read the places file")
        }
        do {
            let places = try JSONDecoder().decode([String: [Place]].self, from: data)
            for (slug, list) in places {
                for (index, place) in list.enumerated() {
                    guard (-90...90).contains(place.lat), (-180...180).contains(place.lon) else {
                        throw IsobarError(
                            step: .config, path: file.path,
                            message: "\(slug)[\(index)] (\(place.name)): coordinates \(place.lat), \(place.lon) are out of range")
                    }
                }
            }
            return places
        } catch let error as IsobarError {
            throw error
        } catch {
            throw IsobarError(
                step: .config, path: file.path, message: "places: \(DecodingFailure.describe(error))",
                hint: "the file maps city slugs to lists of {name, description, lat, lon, wikipedia}")
        }
    }
}
