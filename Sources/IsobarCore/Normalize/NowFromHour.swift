import Foundation

/// "Now" where a service sends no current conditions (NWS always; a WeatherKit body with
/// hours but no `currentWeather`; an Open-Meteo body with `hourly` but no `current`): the
/// forecast hour that holds the moment the body was fetched, or the first hour when none
/// does, its values as they are (README says so for each service). Nothing of the last
/// hour's rain: a forecast hour has the coming hour's.
extension CurrentConditions {
    /// The hour `hours` holds at `time` (the last starting at or before it), else the first.
    static func nearest(_ hours: [HourlyForecast], to time: Date) -> HourlyForecast? {
        hours.last { $0.time <= time } ?? hours.first
    }

    init(hour: HourlyForecast) {
        self.init(
            time: hour.time, sunrise: nil, sunset: nil, temperature: hour.temperature, feelsLike: hour.feelsLike,
            pressure: hour.pressure, humidity: hour.humidity, dewPoint: hour.dewPoint, uvIndex: hour.uvIndex, cloudCover: hour.cloudCover,
            visibility: hour.visibility, windSpeed: hour.windSpeed, windGust: hour.windGust, windDirection: hour.windDirection,
            rainLastHour: nil, snowLastHour: nil, conditions: [hour.condition].compactMap { $0 })
    }
}
