/// Wind directions as 16-point compass names.
public enum Compass {
    static let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    /// The point a bearing (degrees, where the wind comes from) falls in; each point covers 22.5°.
    public static func point(for degrees: Double) -> String {
        points[index(for: degrees)]
    }

    /// The keys of the points' names in the strings (`compass_0` … `compass_15`), made once:
    /// a page names the wind's point some fifty times.
    static let nameKeys = points.indices.map { "compass_\($0)" }

    /// 0 (N) … 15 (NNW); the key of a localized name is `compass_<index>`.
    public static func index(for degrees: Double) -> Int {
        // Directions are range-checked when decoded; a non-finite one must still not trap.
        guard degrees.isFinite else { return 0 }
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return Int((normalized / 22.5).rounded()) % 16
    }
}
