import Foundation

/// Every warning source of the run, and for each city the bodies of those that cover it
/// (`SiteConfig.warningSources`): stored and fresh (`cache.max_age`, or the city's
/// `refresh:`), else asked for and stored; offline and for snapshots, stored whatever their
/// age. A source that fails never fails the city: its stored body younger than
/// `stale_after` stands in, else the city's page says warnings could not be fetched.
struct WarningFetcher: Sendable {
    var config: SiteConfig
    var sources: [WarningSourceKind: any WarningSource]
    var cache: ResponseCache
    /// nil offline and for snapshots: nothing is asked for.
    var client: PoliteClient?
    /// Snapshots: a source covers a city only where its warnings were recorded.
    var recordedOnly: Bool
    let bodies = WarningBodies()

    /// The run's sources: read from the snapshots (`provider: snapshot`), from the cache
    /// (`--offline`), or fetched through the run's client and rate limiter (`live`), with its
    /// retries. Their requests count in the report's requests but in no provider's budget:
    /// the services are free, and a warning must not wait for a forecast's quota.
    static func make(_ config: SiteConfig, offline: Bool, live: ProviderSetup.Live?, environment: BuildEnvironment) -> WarningFetcher {
        var sources: [WarningSourceKind: any WarningSource] = [
            .meteoalarm: MeteoAlarmSource(baseURL: config.meteoAlarm.baseURL),
        ]
        if let contact = config.contact(for: .nws) { sources[.nws] = NWSAlertsSource(baseURL: config.nws.baseURL, contact: contact) }
        let snapshot = config.provider == .snapshot
        let store = ResponseStore(root: snapshot ? config.snapshotDirectory : config.cache.directory)
        let cache = ResponseCache(store: store, maxAge: config.cache.maxAge, now: environment.now)
        var client: PoliteClient?
        if !snapshot, !offline, let live {
            client = PoliteClient(client: live.http, limiter: live.limiter, retry: environment.retry, clock: environment.clock,
                                  budget: nil, tally: live.tally)
        }
        return WarningFetcher(config: config, sources: sources, cache: cache, client: client, recordedOnly: snapshot)
    }

    /// The city's warnings: each covering source's body, or why there is none.
    func fetch(_ city: CityConfig) async -> CityWarnings {
        var warnings = CityWarnings(sources: [], language: config.language)
        for kind in covering(city) {
            guard let source = sources[kind] else {
                // OpenWeather's alerts come inside its forecast.
                warnings.sources.append(kind)
                continue
            }
            let answer = await self.answer(source, city)
            // Not recorded: the snapshot has no such source for the city.
            if recordedOnly, answer.body == nil { continue }
            warnings.sources.append(kind)
            warnings.bodies[kind] = answer.body
            warnings.failures[kind] = answer.failure
        }
        return warnings
    }

    /// Without a request: each source's stored body whatever its age (a city built from its
    /// cache because the budget or a failed forecast said so).
    func stored(_ city: CityConfig) -> CityWarnings {
        var warnings = CityWarnings(sources: [], language: config.language)
        for kind in covering(city) {
            guard let source = sources[kind] else { warnings.sources.append(kind); continue }
            let (folder, endpoint) = source.location(for: city)
            if let body = try? cache.any(folder, endpoint), cache.now().timeIntervalSince(body.fetchedAt) <= config.staleAfter || recordedOnly {
                warnings.sources.append(kind)
                warnings.bodies[kind] = body
            } else if !recordedOnly {
                warnings.sources.append(kind)
                warnings.failures[kind] = IsobarError(step: .fetch, path: cache.store.path(for: folder, endpoint),
                                                      message: "\(kind.displayName) warnings: none stored younger than stale_after")
            }
        }
        return warnings
    }

    /// The stored bodies by size and modification time, without reading them: what
    /// `CityWarnings.identity` gives once they are read (snapshots' no-change rebuild).
    func storedIdentity(_ city: CityConfig) -> String {
        let lines = covering(city).map { kind -> String in
            guard let source = sources[kind] else { return kind.rawValue }
            let (folder, endpoint) = source.location(for: city)
            var status = stat()
            guard stat(cache.store.path(for: folder, endpoint), &status) == 0 else { return recordedOnly ? "" : "\(kind.rawValue) failed" }
            return CityWarnings.identityLine(kind, size: Int(status.st_size), time: ResponseStore.modified(status).timeIntervalSince1970)
        }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    private func covering(_ city: CityConfig) -> [WarningSourceKind] {
        config.warningSources(for: city)
    }

    private func answer(_ source: any WarningSource, _ city: CityConfig) async -> WarningBodies.Answer {
        let (folder, endpoint) = source.location(for: city)
        let cache = self.cache, staleAfter = config.staleAfter
        return await bodies.answer(folder + "/" + endpoint.rawValue) {
            let stored: RawResponse?
            do {
                stored = try cache.any(folder, endpoint)
            } catch {
                return .init(body: nil, failure: error as? IsobarError ?? IsobarError(step: .fetch, message: "\(error)"))
            }
            do {
                return .init(body: try await body(source, city, stored: stored), failure: nil)
            } catch {
                let failure = error as? IsobarError ?? IsobarError(step: .fetch, message: "\(error)")
                // The last stored warnings stand in while they are young enough.
                if let stored, cache.now().timeIntervalSince(stored.fetchedAt) <= staleAfter { return .init(body: stored, failure: failure) }
                return .init(body: nil, failure: failure)
            }
        }
    }

    private func body(_ source: any WarningSource, _ city: CityConfig, stored: RawResponse?) async throws -> RawResponse {
        let (folder, endpoint) = source.location(for: city)
        // A shared feed has no city of its own: `cache.max_age` says when it is due.
        if let stored, recordedOnly || cache.now().timeIntervalSince(stored.fetchedAt) < (folder == city.slug ? cache.refreshInterval(for: city) : cache.maxAge) {
            return stored
        }
        guard let client else {
            guard let stored else {
                throw IsobarError(step: .fetch, path: cache.store.path(for: folder, endpoint),
                                  message: "\(source.kind.displayName) warnings: nothing stored to build from offline",
                                  hint: "run once without --offline to fetch them")
            }
            return stored
        }
        let response: HTTPResponse
        do {
            response = try await client.get(source.request(for: city))
        } catch let failure as RequestFailure {
            throw source.failure(failure)
        }
        try source.validate(response.body)
        return try cache.save(response.body, folder, endpoint)
    }
}
