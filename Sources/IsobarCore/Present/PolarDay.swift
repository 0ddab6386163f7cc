import Foundation

/// Days without a sunrise or without a sunset, from the latitude and the date: what the
/// page says when the API sends no sun times (it sends 0 then). Computed, not guessed from
/// the absence alone, so a missing time in London never reads as "Midnight sun".
public enum PolarDay: Sendable, Equatable {
    case polarNight
    case midnightSun

    /// The sun's centre this far below the horizon is the apparent sunrise (refraction
    /// and the sun's radius), as almanacs count it.
    static let horizon = -0.833

    /// Nil on a day with a sunrise and a sunset: the sun's noon and midnight altitudes
    /// from its declination at `date` (`SkyPosition`, as the computed sun times use).
    public static func on(_ date: Date, latitude: Double) -> PolarDay? {
        guard latitude.isFinite else { return nil }
        let declination = SkyPosition.sun(date).declination
        let noon = 90 - abs(latitude - declination)
        let midnight = abs(latitude + declination) - 90
        if noon < horizon { return .polarNight }
        if midnight > horizon { return .midnightSun }
        return nil
    }
}
