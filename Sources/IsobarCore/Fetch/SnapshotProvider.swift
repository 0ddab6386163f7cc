import Foundation

/// `provider: snapshot`: reads recorded responses from `snapshot_dir`, never the network.
/// A city needs `onecall.json`, the free pair `weather.json` + `forecast.json`,
/// `open-meteo-forecast.json`, `met-norway-forecast.json` or `weatherkit.json` (`Endpoint.wholeForecasts`);
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
        guard Self.holdsAForecast(responses) else { throw missing(city, responses) }
        var recorded = CityResponses(city: city, responses: responses)
        recorded.recorded = true
        return recorded
    }

    /// Why the city has no forecast among the snapshots, if it has none: what
    /// `isobar check` says before a build fails the city for it.
    public func missingRecording(_ city: CityConfig) -> IsobarError? {
        guard let responses = try? store.readAll(slug: city.slug) else { return missing(city, [:]) }
        return Self.holdsAForecast(responses) ? nil : missing(city, responses)
    }

    private static func holdsAForecast(_ responses: [Endpoint: RawResponse]) -> Bool {
        Endpoint.wholeForecasts.contains { responses[$0] != nil }
            || responses[.currentWeather] != nil && responses[.fiveDayForecast] != nil
    }

    /// Names the file that is missing: half of the free pair names its other half, an
    /// empty or absent folder says so.
    private func missing(_ city: CityConfig, _ responses: [Endpoint: RawResponse]) -> IsobarError {
        let folder = store.root.appendingPathComponent(city.slug)
        let hint = "record the responses into \(folder.path)/ or remove the city from the config"
        let pair: [(have: Endpoint, need: Endpoint)] = [(.currentWeather, .fiveDayForecast), (.fiveDayForecast, .currentWeather)]
        if let half = pair.first(where: { responses[$0.have] != nil }) {
            return IsobarError(
                step: .fetch, path: folder.appendingPathComponent(half.need.fileName).path,
                message: "no snapshot: \(half.have.fileName) is there but \(half.need.fileName) is missing (the free API needs both)",
                hint: hint)
        }
        let found = responses.keys.map(\.fileName).sorted()
        let what = !FileManager.default.fileExists(atPath: folder.path) ? "the folder does not exist"
            : found.isEmpty ? "the folder has no responses" : "the folder has only \(found.joined(separator: ", "))"
        return IsobarError(
            step: .fetch, path: folder.path,
            message: "no snapshot: \(what); expected \(Endpoint.forecastFilesExpected)",
            hint: hint)
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
