import Foundation

/// When the sun or the moon rises and sets over a city's local day, as almanacs count it:
/// the moment the body's upper edge, lifted by the atmosphere's refraction, touches a
/// level horizon. Either is nil on a day it does not happen (polar night and midnight
/// sun; about one day a month for each of the moon's).
struct RiseAndSet: Equatable {
    var rise: Date?
    var set: Date?

    enum Body {
        case sun, moon

        func position(_ date: Date) -> SkyPosition {
            self == .sun ? .sun(date) : .moon(date)
        }

        /// The geocentric altitude of the body's centre at its rise and set, degrees: the
        /// sun's half width and refraction (−50′); for the moon also its parallax, which
        /// lowers it by up to a degree seen from the ground (Meeus, ch. 15).
        func horizon(_ position: SkyPosition) -> Double {
            self == .sun ? -0.8333 : 0.7275 * position.parallax - 0.5667
        }
    }

    /// The first rise and the first set in `day`. The altitude is sampled every hour (a
    /// body cannot rise and set again within one) and each crossing narrowed down by
    /// halving to under a second.
    static func of(_ body: Body, during day: Range<Date>, latitude: Double, longitude: Double) -> RiseAndSet {
        func height(_ date: Date) -> Double {
            let position = body.position(date)
            return position.altitude(at: date, latitude: latitude, longitude: longitude) - body.horizon(position)
        }
        let steps = max(1, Int((day.upperBound.timeIntervalSince(day.lowerBound) / 3600).rounded(.up)))
        let step = day.upperBound.timeIntervalSince(day.lowerBound) / Double(steps)
        var events = RiseAndSet()
        var before = day.lowerBound, heightBefore = height(before)
        for index in 1...steps {
            let after = day.lowerBound.addingTimeInterval(Double(index) * step), heightAfter = height(after)
            let rising = heightBefore < 0 && heightAfter >= 0, setting = heightBefore >= 0 && heightAfter < 0
            if (rising && events.rise == nil) || (setting && events.set == nil) {
                var (low, high) = (before, after)
                while high.timeIntervalSince(low) > 1 {
                    let middle = low.addingTimeInterval(high.timeIntervalSince(low) / 2)
                    if (height(middle) >= 0) == rising { high = middle } else { low = middle }
                }
                let moment = Date(timeIntervalSince1970: high.timeIntervalSince1970.rounded())
                if rising { events.rise = moment } else { events.set = moment }
            }
            (before, heightBefore) = (after, heightAfter)
        }
        return events
    }
}

/// The moon's phase at a moment: 0 and 1 new moon, 0.25 first quarter, 0.5 full, 0.75
/// last quarter (OpenWeather's `moon_phase`): how far the moon has moved ahead of the
/// sun along the ecliptic, in turns.
enum LunarPhase {
    static func at(_ date: Date) -> Double {
        let ahead = (SkyPosition.moon(date).longitude - SkyPosition.sun(date).longitude).truncatingRemainder(dividingBy: 360)
        return (ahead < 0 ? ahead + 360 : ahead) / 360
    }
}
