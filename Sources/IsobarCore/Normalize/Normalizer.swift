/// The Normalize stage: picks the decoder for what was fetched and assembles one `Forecast`.
public struct Normalizer: Sendable {
    /// The UI-language text of a condition's strings key (`Condition.textKey`: `wmo_61`,
    /// `owm_500`), for providers that send codes, not words (Open-Meteo, MET Norway, NWS).
    public var describe: @Sendable (String) -> String

    public init(describe: @escaping @Sendable (String) -> String = { $0 }) {
        self.describe = describe
    }

    public func forecast(from fetched: CityResponses) throws -> Forecast {
        let forecast = try decoded(fetched).startingAtDataTime().withComputedSky()
        let times = PlausibleTimes(fetchedAt: fetched.recorded ? nil : forecast.source.fetchedAt)
        if let problem = times.problem(in: forecast) {
            let file = Endpoint.wholeForecasts.lazy.compactMap { fetched[$0] }.first ?? fetched[.currentWeather]
            throw IsobarError(step: .normalize, path: file.map { $0.file?.path ?? $0.endpoint.fileName },
                              message: "the forecast for \(fetched.city.name): unexpected response: \(problem)")
        }
        return fetched.warnings.map { forecast.withWarnings($0, city: fetched.city) } ?? forecast
    }

    private func decoded(_ fetched: CityResponses) throws -> Forecast {
        let describe = self.describe
        if let openMeteo = fetched[.openMeteoForecast] {
            let decoder = OpenMeteoDecoder(units: fetched.city.units, describe: { describe("wmo_\($0)") })
            var forecast = try decoder.forecast(openMeteo, city: fetched.city)
            if let air = fetched[.openMeteoAirQuality] {
                forecast.airQuality = try decoder.airQuality(air)
            }
            return forecast
        }
        if let metNorway = fetched[.metNorwayForecast] {
            return try MetNorwayDecoder(describe: { describe("owm_\($0)") }).forecast(metNorway, city: fetched.city)
        }
        if let hourly = fetched[.nwsForecastHourly] {
            return try NWSDecoder(describe: { describe("owm_\($0)") })
                .forecast(points: fetched[.nwsPoints], hourly: hourly, periods: fetched[.nwsForecast], grid: fetched[.nwsGrid], city: fetched.city)
        }
        if let weatherKit = fetched[.weatherKit] {
            return try WeatherKitDecoder(describe: { describe("owm_\($0)") }).forecast(weatherKit, city: fetched.city)
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
