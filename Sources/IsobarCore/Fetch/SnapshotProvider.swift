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
        let responses = try await BlockingReads.perform { try store.readAll(slug: city.slug) }
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

    /// Snapshots are files that change only when someone replaces them: like make and
    /// rsync, size and modification time tell whether they did, and a no-change rebuild
    /// then reads none of them (reading them was most of such a rebuild).
    public func storedIdentity(_ city: CityConfig) -> String? {
        store.statuses(slug: city.slug).map { endpoint, status in
            Self.identityLine(endpoint, size: Int(status.st_size), time: ResponseStore.modified(status).timeIntervalSince1970)
        }.joined(separator: "\n")
    }

    public func identity(of responses: CityResponses) -> String? {
        Endpoint.allCases.compactMap { endpoint in
            responses[endpoint].map { Self.identityLine(endpoint, size: $0.body.count, time: $0.fetchedAt.timeIntervalSince1970) }
        }.joined(separator: "\n")
    }

    /// `ResponseStore.read` gives a response the file's mtime as its time, the same
    /// conversion as above, so both sides print the same digits.
    private static func identityLine(_ endpoint: Endpoint, size: Int, time: Double) -> String {
        "\(endpoint.rawValue) \(size) \(time)"
    }
}
