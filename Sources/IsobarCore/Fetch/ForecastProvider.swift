import Foundation

/// Where a city's raw responses come from: recorded snapshots, or a weather API.
public protocol ForecastProvider: Sendable {
    /// A short name for messages and the report, e.g. `snapshot`.
    var name: String { get }
    func fetch(_ city: CityConfig) async throws -> CityResponses
    /// Stored responses no older than `maxAge`, to rebuild a city whose fetch failed
    /// ("stale" data); nil when there are none.
    func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses?
    /// How the city's responses are told apart from one build to the next without reading
    /// them (stored files by size and modification time), or nil when they must be read
    /// and compared by content. `identity(of:)` must give the same text for what `fetch`
    /// returns, so that a city's fingerprint is the same whichever way it was made.
    func storedIdentity(_ city: CityConfig) -> String?
    func identity(of responses: CityResponses) -> String?
    /// For the call budget's plan: when the city's data was fetched and the requests a
    /// refresh would send now (0 when it is not due); nil when this provider sends none
    /// (snapshots, `--offline`).
    func refreshCandidate(_ city: CityConfig) -> RefreshPlan.Candidate?
}

extension ForecastProvider {
    /// Providers without a cache (snapshots) have nothing older to fall back on.
    public func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses? { nil }
    /// Live responses are compared by content.
    public func storedIdentity(_ city: CityConfig) -> String? { nil }
    public func identity(of responses: CityResponses) -> String? { nil }
    public func refreshCandidate(_ city: CityConfig) -> RefreshPlan.Candidate? { nil }
}
