import Foundation

/// Sunrise and sunset as the APIs send them, made honest: in polar night and midnight sun
/// OpenWeather sends 0 (which would read as 1970-01-01 00:00 UTC), and a time days away
/// from the data's own is no time of that day. Both are absent; presentation then says
/// "Polar night" or "Midnight sun" where the latitude and date make that true.
enum SunTimes {
    /// How far a sunrise or sunset may lie from its day's reference time (the data time,
    /// or a daily entry's time, which can be local noon or midnight).
    static let window: TimeInterval = 36 * 3600

    static func date(_ seconds: Double?, near reference: TimeInterval) -> Date? {
        guard let seconds, seconds > 0, abs(seconds - reference) <= window else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Open-Meteo's forms of a day without sunrise or sunset are absent too: polar night
    /// as sunrise equal to sunset, midnight sun as the day's midnight to the next one.
    static func pair(sunrise: Double?, sunset: Double?, near reference: TimeInterval) -> (sunrise: Date?, sunset: Date?) {
        if let sunrise, let sunset, sunrise == sunset || sunset - sunrise >= 86_400 - 60 { return (nil, nil) }
        return (date(sunrise, near: reference), date(sunset, near: reference))
    }
}
