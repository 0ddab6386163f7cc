/// The Normalize stage: picks the decoder for what was fetched and assembles one `Forecast`.
public struct Normalizer: Sendable {
    /// The UI-language text of a condition's strings key (`Condition.textKey`: `wmo_61`,
    /// `owm_500`), for services that send codes, not words.
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

    /// The first service of the registry whose bodies were fetched decodes them.
    private func decoded(_ fetched: CityResponses) throws -> Forecast {
        for service in ServiceRegistry.forecasts {
            if let forecast = try service.forecast(fetched, describe: describe) { return forecast }
        }
        throw IsobarError(step: .normalize, message: "no forecast response for \(fetched.city.name)")
    }
}
