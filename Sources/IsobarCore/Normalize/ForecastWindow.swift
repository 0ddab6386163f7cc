import Foundation

extension Forecast {
    /// The forecast from the data time on. Bodies can carry the past too: an Open-Meteo
    /// series from local midnight, a recorded body with `past_days`. A page's "Next 48
    /// hours" starts at the hour that holds the data time (14:00 at 14:20), its "Next days"
    /// at the local today.
    ///
    /// Removed in place: where nothing is past, as usual, no list is copied. (`filter` built
    /// each list anew, reallocating as it grew: an hourly list of large values seven times.)
    func startingAtDataTime() -> Forecast {
        var copy = self
        let now = current.time
        copy.hourly.removeAll { $0.time.addingTimeInterval(Double($0.stepHours) * 3600) <= now }
        let today = LocalDay.key(for: now, in: location.timeZone)
        copy.daily.removeAll { $0.day < today }
        copy.nowcast.removeAll { $0.time.addingTimeInterval(Double($0.minutes) * 60) <= now }
        return copy
    }
}
