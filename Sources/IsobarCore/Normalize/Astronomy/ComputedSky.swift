import Foundation

/// What no provider has to send, computed from the coordinates and the date: each day's
/// sunrise, sunset, moonrise, moonset and moon phase where the provider sent none
/// (Open-Meteo sends no moon, the free OpenWeather forecast no days, MET Norway neither),
/// so every provider's page is complete. A provider's own figure is kept where it has one.
extension Forecast {
    func withComputedSky() -> Forecast {
        var copy = self
        let zone = location.timeZone, (latitude, longitude) = (location.latitude, location.longitude)
        guard latitude.isFinite, longitude.isFinite else { return self }
        copy.daily = daily.map { day in
            guard day.sunrise == nil || day.sunset == nil || day.moonrise == nil || day.moonset == nil || day.moonPhase == nil,
                  let hours = LocalDay.hours(of: day.day, in: zone)
            else { return day }
            var day = day
            if day.sunrise == nil || day.sunset == nil {
                let sun = RiseAndSet.of(.sun, during: hours, latitude: latitude, longitude: longitude)
                day.sunrise = day.sunrise ?? sun.rise
                day.sunset = day.sunset ?? sun.set
            }
            if day.moonrise == nil || day.moonset == nil {
                let moon = RiseAndSet.of(.moon, during: hours, latitude: latitude, longitude: longitude)
                day.moonrise = day.moonrise ?? moon.rise
                day.moonset = day.moonset ?? moon.set
            }
            // At local noon, as OpenWeather gives a day's phase.
            day.moonPhase = day.moonPhase ?? LunarPhase.at(hours.lowerBound.addingTimeInterval(hours.upperBound.timeIntervalSince(hours.lowerBound) / 2))
            return day
        }
        return copy
    }
}
