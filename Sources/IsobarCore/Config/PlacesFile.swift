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
    /// Far more than any city's places; a larger file is a mistake, not data.
    static let maxBytes = 16 * 1024 * 1024

    public static func load(from file: URL) throws -> [String: [Place]] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw IsobarError(step: .config, path: file.path, message: "cannot read the places file")
        }
        guard data.count <= maxBytes else {
            throw IsobarError(step: .config, path: file.path, message: "the places file is larger than 16 MiB")
        }
        guard !data.isEmpty else {
            throw IsobarError(step: .config, path: file.path, message: "the places file is empty",
                              hint: "write {} for no places, or remove the file")
        }
        do {
            let places = try JSONDecoder().decode([String: [Place]].self, from: data)
            for (slug, list) in places {
                for (index, place) in list.enumerated() {
                    guard (-90...90).contains(place.lat), (-180...180).contains(place.lon) else {
                        throw IsobarError(
                            step: .config, path: file.path,
                            message: "places: \(slug)[\(index)].lat/lon: \(place.lat), \(place.lon) is not a place on Earth")
                    }
                    if let image = place.image, image.isEmpty || image.contains("/") || image.hasPrefix(".") {
                        throw IsobarError(
                            step: .config, path: file.path, message: "places: \(slug)[\(index)].image: \"\(image)\" must be a plain file name",
                            hint: "put the image in Public/places/ and give its name, e.g. \"tower.jpg\"")
                    }
                }
            }
            return places
        } catch let error as IsobarError {
            throw error
        } catch {
            throw IsobarError(
                step: .config, path: file.path, message: "places: \(DecodingFailure.describe(error, data: data))",
                hint: "the file maps city slugs to lists of {name, description, lat, lon, wikipedia}")
        }
    }
}
