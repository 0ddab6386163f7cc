import Foundation

/// Where a city's raw responses come from: recorded snapshots, or a weather API.
public protocol ForecastProvider: Sendable {
    /// A short name for messages and the report, e.g. `snapshot`.
    var name: String { get }
    func fetch(_ city: CityConfig) async throws -> CityResponses
    /// Stored responses no older than `maxAge`, to rebuild a city whose fetch failed
    /// ("stale" data); nil when there are none.
    func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses?
}

extension ForecastProvider {
    /// Providers without a cache (snapshots) have nothing older to fall back on.
    public func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses? { nil }
}
