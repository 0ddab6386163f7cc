/// Where a city's raw responses come from: recorded snapshots, or a weather API.
public protocol ForecastProvider: Sendable {
    /// A short name for messages and the report, e.g. `snapshot`.
    var name: String { get }
    func fetch(_ city: CityConfig) async throws -> CityResponses
}
