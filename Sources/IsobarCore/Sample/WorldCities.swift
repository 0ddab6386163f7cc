import Foundation

/// Where a sample city is when the config gives it no `lat:`/`lon:`: the world's cities
/// of at least 100,000 people (GeoNames, `list`), looked up by name and country, so the
/// sample preview needs no geocoder and no network.
enum WorldCities {
    struct City: Equatable {
        var name: String
        var country: String
        var latitude: Double
        var longitude: Double
        var timeZone: String
    }

    /// How many cities the list holds, for the message about one that is not in it.
    static var count: Int { entries.count }

    /// The largest city of that name (case and accents aside) in the country, in the US
    /// state when the city gives one; nil when the list has none.
    static func find(_ name: String, country: String, state: String?) -> City? {
        let key = folded(name), country = country.uppercased(), state = state?.uppercased()
        let named = entries.filter { $0.key == key && $0.city.country == country }
        return (named.first { state != nil && $0.state == state } ?? named.first)?.city
    }

    private struct Entry {
        var key: String
        var state: String
        var city: City
    }

    private static let entries: [Entry] = list.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, let latitude = Double(fields[3]), let longitude = Double(fields[4]) else { return nil }
        return Entry(key: folded(fields[0]), state: fields[2],
                     city: City(name: fields[0], country: fields[1], latitude: latitude, longitude: longitude, timeZone: fields[5]))
    }

    private static func folded(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .replacingOccurrences(of: "-", with: " ").trimmingCharacters(in: .whitespaces)
    }
}
