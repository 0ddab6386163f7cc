/// A CAP `<polygon>`: "lat,lon lat,lon …" pairs, the first repeated as the last (CAP 1.2,
/// 3.3.2.2), latitude first — the other way round from GeoJSON.
struct CAPPolygon: Sendable, Equatable {
    var points: [(latitude: Double, longitude: Double)]

    static func == (a: Self, b: Self) -> Bool {
        a.points.count == b.points.count && zip(a.points, b.points).allSatisfy { $0 == $1 }
    }

    /// nil for text that is not at least three pairs of numbers.
    init?(_ text: String) {
        var points: [(latitude: Double, longitude: Double)] = []
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            let parts = pair.split(separator: ",")
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                latitude.isFinite, longitude.isFinite else { return nil }
            points.append((latitude, longitude))
        }
        guard points.count >= 3 else { return nil }
        self.points = points
    }

    /// Whether the point lies inside (even-odd rule: a ray to the east crosses the outline
    /// an odd number of times). Each edge counts its lower end and not its upper one, so a
    /// ray through a vertex is counted once and a horizontal edge never. A point exactly on
    /// the outline may fall either way, as for any ray test; warning areas are drawn with
    /// margins far wider than that. Longitudes are taken as written: the areas this is
    /// used for (MeteoAlarm's, in Europe) never cross the antimeridian.
    func contains(latitude: Double, longitude: Double) -> Bool {
        var inside = false
        var j = points.count - 1
        for i in points.indices {
            let (a, b) = (points[i], points[j])
            if (a.latitude > latitude) != (b.latitude > latitude) {
                let crossing = a.longitude + (latitude - a.latitude) * (b.longitude - a.longitude) / (b.latitude - a.latitude)
                if longitude < crossing { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}
