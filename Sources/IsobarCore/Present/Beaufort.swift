/// The Beaufort wind force scale, from the mean wind speed.
public enum Beaufort {
    /// Upper bounds in m/s of forces 0…11 (WMO); anything faster is force 12.
    static let upperBounds: [Double] = [0.5, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]

    public static func force(metresPerSecond speed: Double) -> Int {
        upperBounds.firstIndex { speed < $0 } ?? 12
    }
}
