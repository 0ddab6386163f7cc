import Foundation

/// The response cache: raw bodies in the `ResponseStore` layout, each file's
/// modification time being when it was fetched.
public struct ResponseCache: Sendable {
    public var store: ResponseStore
    /// Younger than this, a response is used without asking the API again.
    public var maxAge: TimeInterval
    public var now: @Sendable () -> Date

    public init(store: ResponseStore, maxAge: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.maxAge = maxAge
        self.now = now
    }

    /// The stored response whatever its age (for `--offline`, and geocoding, kept for good).
    public func any(_ slug: String, _ endpoint: Endpoint) throws -> RawResponse? {
        try store.read(slug: slug, endpoint: endpoint)
    }

    /// The stored response if it is younger than the city's refresh interval.
    public func fresh(_ city: CityConfig, _ endpoint: Endpoint) throws -> RawResponse? {
        guard let response = try store.read(slug: city.slug, endpoint: endpoint) else { return nil }
        return isFresh(response.fetchedAt, for: city) ? response : nil
    }

    /// How old a city's data may get before it is fetched again: its own `refresh:`, or
    /// `cache.max_age`.
    public func refreshInterval(for city: CityConfig) -> TimeInterval {
        city.refresh ?? maxAge
    }

    public func isFresh(_ fetchedAt: Date, for city: CityConfig) -> Bool {
        now().timeIntervalSince(fetchedAt) < refreshInterval(for: city)
    }

    /// How many of the cities' stored responses were fetched at `since` or later: each one
    /// was at least one request (geocoding and NWS points answers, kept for good, are left out).
    public func responsesFetched(since: Date, slugs: [String]) -> Int {
        slugs.reduce(0) { total, slug in
            total + fetchTimes(slug).filter { !Endpoint.keptForGood.contains($0.key) && $0.value >= since }.count
        }
    }

    /// When each stored response of the city was fetched, without reading any.
    public func fetchTimes(_ slug: String) -> [Endpoint: Date] {
        Dictionary(uniqueKeysWithValues: store.statuses(slug: slug).map { ($0.endpoint, ResponseStore.modified($0.status)) })
    }

    /// `--offline` with nothing stored for the city: a live provider's miss.
    public func nothingOffline(_ slug: String) -> IsobarError {
        IsobarError(step: .fetch, path: store.root.appendingPathComponent(slug).path, message: "nothing cached to build from offline",
                    hint: "run once without --offline to fill the cache")
    }

    /// Stores a body as it came, stamped with the run's clock (an equal body is written
    /// too: its mtime is its age). A symbolic link in the cache, for the city's folder or
    /// the file, is refused rather than written through.
    @discardableResult
    public func save(_ body: Data, _ slug: String, _ endpoint: Endpoint) throws -> RawResponse {
        let time = now()
        try OwnedFolder(store.root, step: .fetch, create: true).write(body, to: slug + "/" + endpoint.fileName, modified: time)
        return RawResponse(endpoint: endpoint, body: body, fetchedAt: time, file: store.file(for: slug, endpoint))
    }
}
