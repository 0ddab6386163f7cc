/// Names for OpenWeather's `moon_phase` (0 and 1 new moon, 0.25 first quarter,
/// 0.5 full moon, 0.75 last quarter): eight phases of 1/8 each, centred on those points.
public enum MoonPhase {
    /// 0 new … 4 full … 7 waning crescent; the key of its name is `moon_<index>`.
    public static func index(_ phase: Double) -> Int {
        guard phase.isFinite else { return 0 }
        let wrapped = phase - phase.rounded(.down)
        return Int((wrapped * 8).rounded()) % 8
    }
}
