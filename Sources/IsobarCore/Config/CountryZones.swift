import Foundation

/// The tz database's zones by country, each with its reference city's coordinates, from
/// `zone.tab` (installed with tzdata): what `isobar check` suggests a city's `timezone:`
/// from. Foundation names every zone but does not say which country's it is, and ICU's
/// country lookup is not public through it. `zone.tab` rather than `zone1970.tab`: it
/// lists each country's own zones (`Europe/Amsterdam` for NL, where `zone1970.tab` gives
/// `Europe/Brussels`, a zone shared since 1970).
struct CountryZones: Sendable {
    struct Zone: Sendable, Equatable {
        var identifier: String
        var latitude: Double
        var longitude: Double
    }

    private var byCountry: [String: [Zone]]

    /// The system's table (`$TZDIR/zone.tab`, by default under /usr/share/zoneinfo); nil
    /// where tzdata is not installed, and then no zone is suggested.
    static func system(environment: [String: String] = ProcessInfo.processInfo.environment) -> CountryZones? {
        let folder = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        guard let data = FileManager.default.contents(atPath: folder + "/zone.tab") else { return nil }
        return CountryZones(tab: String(decoding: data, as: UTF8.self))
    }

    /// Lines of `code<TAB>coordinates<TAB>zone[<TAB>comment]`; comments, malformed lines
    /// and zones Foundation does not know are left out.
    init(tab: String) {
        var table: [String: [Zone]] = [:]
        for line in tab.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let (latitude, longitude) = Self.coordinates(fields[1]),
                TimeZone(identifier: String(fields[2])) != nil
            else { continue }
            table[String(fields[0]), default: []].append(Zone(identifier: String(fields[2]), latitude: latitude, longitude: longitude))
        }
        byCountry = table
    }

    func zones(in country: String) -> [Zone] {
        byCountry[country] ?? []
    }

    /// ISO 6709 as zone.tab writes it: `±DDMM±DDDMM` or `±DDMMSS±DDDMMSS`.
    static func coordinates(_ text: Substring) -> (latitude: Double, longitude: Double)? {
        guard let split = text.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }),
            let latitude = angle(text[..<split], degreeDigits: 2), let longitude = angle(text[split...], degreeDigits: 3)
        else { return nil }
        return (latitude, longitude)
    }

    private static func angle(_ text: Substring, degreeDigits: Int) -> Double? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst()
        guard digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4, digits.allSatisfy(\.isASCII),
            let degrees = Double(digits.prefix(degreeDigits)), let minutes = Double(digits.dropFirst(degreeDigits).prefix(2))
        else { return nil }
        let seconds = digits.count > degreeDigits + 2 ? Double(digits.suffix(2)) : 0
        guard let seconds else { return nil }
        let value = degrees + minutes / 60 + seconds / 3600
        return sign == "-" ? -value : value
    }

    /// Of `zones`, the one whose reference city is nearest the point (great-circle distance).
    static func nearest(_ zones: [Zone], latitude: Double, longitude: Double) -> Zone? {
        func distance(_ zone: Zone) -> Double {
            let radians = Double.pi / 180
            let dLat = (zone.latitude - latitude) * radians, dLon = (zone.longitude - longitude) * radians
            let a = sin(dLat / 2) * sin(dLat / 2)
                + cos(latitude * radians) * cos(zone.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
            return 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
        }
        return zones.min { distance($0) < distance($1) }
    }
}
