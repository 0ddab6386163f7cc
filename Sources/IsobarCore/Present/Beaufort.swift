/// The Beaufort wind force scale, from the mean wind speed.
public enum Beaufort {
    /// Upper bounds in m/s of forces 0…11 (WMO); anything faster is force 12.
    static let upperBounds: [Double] = [0.5, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]

    /// The keys of the forces' descriptions in the strings (`beaufort_0` … `beaufort_12`).
    static let descriptionKeys = (0...upperBounds.count).map { "beaufort_\($0)" }

    public static func force(metresPerSecond speed: Double) -> Int {
        upperBounds.firstIndex { speed < $0 } ?? 12
    }
}
