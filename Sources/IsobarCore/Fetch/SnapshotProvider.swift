import Foundation

/// `provider: snapshot`: reads recorded responses from `snapshot_dir`, never the network.
/// A city needs either `onecall.json` or the free pair `weather.json` + `forecast.json`;
/// `air_pollution.json` is used when present.
public struct SnapshotProvider: ForecastProvider {
    public let store: ResponseStore
    public var name: String { "snapshot" }

    public init(directory: URL) {
        self.store = ResponseStore(root: directory)
    }

    public func fetch(_ city: CityConfig) async throws -> CityResponses {
        let store = self.store
        let responses = try await BlockingReads.perform { () throws -> [Endpoint: RawResponse] in
            var responses: [Endpoint: RawResponse] = [:]
            for endpoint in Endpoint.allCases {
                if let response = try store.read(slug: city.slug, endpoint: endpoint) {
                    responses[endpoint] = response
                }
            }
            return responses
        }
        let hasOneCall = responses[.oneCall] != nil
        let hasFreePair = responses[.currentWeather] != nil && responses[.fiveDayForecast] != nil
        let hasOpenMeteo = responses[.openMeteoForecast] != nil
        guard hasOneCall || hasFreePair || hasOpenMeteo else {
            let folder = store.root.appendingPathComponent(city.slug).path
            throw IsobarError(
                step: .fetch, path: folder,
                message: "no snapshot: expected onecall.json, weather.json and forecast.json, or open-meteo-forecast.json",
                hint: "record the responses into \(folder)/ or remove the city from the config")
        }
        return CityResponses(city: city, responses: responses)
    }
}
