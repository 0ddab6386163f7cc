/// The Normalize stage: picks the decoder for what was fetched and assembles one `Forecast`.
public struct Normalizer: Sendable {
    public init() {}

    public func forecast(from fetched: CityResponses) throws -> Forecast {
        let decoder = OpenWeatherDecoder(units: fetched.city.units)
        var forecast: Forecast
        if let oneCall = fetched[.oneCall] {
            forecast = try decoder.oneCall(oneCall, city: fetched.city)
        } else if let current = fetched[.currentWeather], let fiveDay = fetched[.fiveDayForecast] {
            forecast = try decoder.freePair(current: current, forecast: fiveDay, city: fetched.city)
        } else {
            throw IsobarError(step: .normalize, message: "no forecast response for \(fetched.city.name)")
        }
        if let air = fetched[.airPollution] {
            forecast.airQuality = try decoder.airPollution(air)
        }
        return forecast
    }
}
