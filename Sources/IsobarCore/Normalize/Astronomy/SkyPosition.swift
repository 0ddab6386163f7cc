import Foundation

/// Where the sun and the moon are in the sky, from the time alone: the low-precision
/// formulae of the Astronomical Almanac (as in Meeus, "Astronomical Algorithms", ch. 25
/// and 47, and the Almanac's own section D), good to about 0.01° for the sun and 0.3° for
/// the moon — a minute or two of a rise or set time, which is what a page shows.
struct SkyPosition: Equatable {
    /// Equatorial coordinates of date, degrees.
    var rightAscension: Double
    var declination: Double
    /// Ecliptic longitude of date, degrees (the moon's phase is the moon's less the sun's).
    var longitude: Double
    /// Horizontal parallax, degrees (0 for the sun: 8.8″ changes no minute).
    var parallax = 0.0

    /// Days since J2000.0 (2000-01-01 12:00 TT, taken as UTC: the 69 s between them move
    /// the moon by half a minute of arc).
    static func days(_ date: Date) -> Double {
        date.timeIntervalSince1970 / 86_400 - 10_957.5
    }

    /// The mean obliquity of the ecliptic at `days`.
    private static func obliquity(_ days: Double) -> Double {
        23.439_291 - 0.013_004_2 * days / 36_525
    }

    static func sun(_ date: Date) -> SkyPosition {
        let d = days(date), t = d / 36_525
        let meanLongitude = 280.466_46 + 36_000.769_83 * t
        let anomaly = 357.529_11 + 35_999.050_29 * t
        let centre = (1.914_602 - 0.004_817 * t) * sin(radians(anomaly)) + 0.019_993 * sin(radians(2 * anomaly))
            + 0.000_289 * sin(radians(3 * anomaly))
        // Apparent longitude: nutation and aberration.
        let node = 125.04 - 1_934.136 * t
        let longitude = meanLongitude + centre - 0.005_69 - 0.004_78 * sin(radians(node))
        let obliquity = obliquity(d) + 0.002_56 * cos(radians(node))
        return equatorial(longitude: longitude, latitude: 0, obliquity: obliquity)
    }

    static func moon(_ date: Date) -> SkyPosition {
        let t = days(date) / 36_525
        func term(_ amplitude: Double, _ phase: Double, _ rate: Double) -> Double { amplitude * sin(radians(phase + rate * t)) }
        func cosine(_ amplitude: Double, _ phase: Double, _ rate: Double) -> Double { amplitude * cos(radians(phase + rate * t)) }
        let longitude = 218.32 + 481_267.881 * t + term(6.29, 135.0, 477_198.87) + term(-1.27, 259.3, -413_335.36)
            + term(0.66, 235.7, 890_534.22) + term(0.21, 269.9, 954_397.74) + term(-0.19, 357.5, 35_999.05) + term(-0.11, 186.5, 966_404.03)
        let latitude = term(5.13, 93.3, 483_202.02) + term(0.28, 228.2, 960_400.89) + term(-0.28, 318.3, 6_003.15) + term(-0.17, 217.6, -407_332.21)
        let parallax = 0.9508 + cosine(0.0518, 135.0, 477_198.87) + cosine(0.0095, 259.3, -413_335.36)
            + cosine(0.0078, 235.7, 890_534.22) + cosine(0.0028, 269.9, 954_397.74)
        var position = equatorial(longitude: longitude, latitude: latitude, obliquity: obliquity(days(date)))
        position.parallax = parallax
        return position
    }

    private static func equatorial(longitude: Double, latitude: Double, obliquity: Double) -> SkyPosition {
        let (l, b, e) = (radians(longitude), radians(latitude), radians(obliquity))
        let rightAscension = atan2(sin(l) * cos(e) - tan(b) * sin(e), cos(l))
        let declination = asin(sin(b) * cos(e) + cos(b) * sin(e) * sin(l))
        return SkyPosition(rightAscension: degrees(rightAscension), declination: degrees(declination),
                           longitude: longitude.truncatingRemainder(dividingBy: 360))
    }

    /// The geocentric altitude above the horizon at a place, degrees.
    func altitude(at date: Date, latitude: Double, longitude: Double) -> Double {
        let d = Self.days(date)
        let siderealTime = 280.460_618_37 + 360.985_647_366_29 * d + longitude
        let hourAngle = radians(siderealTime - rightAscension), phi = radians(latitude), delta = radians(declination)
        return degrees(asin(sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(hourAngle)))
    }
}

private func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
private func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
