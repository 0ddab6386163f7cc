/// The Normalize stage: picks the decoder for what was fetched and assembles one `Forecast`.
public struct Normalizer: Sendable {
    /// The UI-language description of a WMO weather code (Open-Meteo sends codes only).
    public var describeWMO: @Sendable (Int) -> String

    public init(describeWMO: @escaping @Sendable (Int) -> String = { "WMO \($0)" }) {
        self.describeWMO = describeWMO
    }

    public func forecast(from fetched: CityResponses) throws -> Forecast {
        try decoded(fetched).startingAtDataTime().withComputedSky()
    }

    private func decoded(_ fetched: CityResponses) throws -> Forecast {
        if let openMeteo = fetched[.openMeteoForecast] {
            let decoder = OpenMeteoDecoder(units: fetched.city.units, describe: describeWMO)
            var forecast = try decoder.forecast(openMeteo, city: fetched.city)
            if let air = fetched[.openMeteoAirQuality] {
                forecast.airQuality = try decoder.airQuality(air)
            }
            return forecast
        }
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
