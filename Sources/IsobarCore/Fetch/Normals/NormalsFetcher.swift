import Foundation

/// The run's normals step (README, "Compared with normal"): each city's climate normals,
/// from the site's normals file, or (`normals: archive`) from the history's `normal`
/// table; failing that from the archive's answer kept in the cache (or the snapshots);
/// failing that asked of Open-Meteo's historical weather API once, through the run's
/// politeness layer and Open-Meteo's call budget, and kept for good. A city whose normals
/// cannot be had shows none, and is tried again next run; nothing here fails the build.
struct NormalsFetcher: Sendable {
    var settings: NormalsSettings
    /// `normals: { file: … }`'s rows, read (and checked) with the config.
    var fromFile: [String: ClimateNormals]
    var requests: NormalsRequests
    /// Where an answer kept for good is looked for: the cache, then the snapshots.
    var stores: [ResponseStore]
    var cache: ResponseCache
    /// nil offline or from snapshots: nothing is asked.
    var client: PoliteClient?
    var log: @Sendable (String) -> Void

    /// Each city's normals, by slug; `locate` gives a city its coordinates (the stored
    /// geocoding answer, or the geocoder's).
    func run(_ cities: [CityConfig], store: (any NormalsStore)?, locate: (CityConfig) async throws -> CityConfig) async -> [String: ClimateNormals] {
        switch settings {
        case .off: return [:]
        case .file: return fromFile
        case .archive: break
        }
        var normals: [String: ClimateNormals] = [:]
        // Those kept, read at once; a read that fails is each city's failure, as it was.
        let kept = Result { try store?.normals(of: cities.map(\.slug)) ?? [:] }
        // One city at a time: each answer is large, asked once, and never urgent.
        for city in cities {
            if Task.isCancelled { break }
            do {
                if let kept = try kept.get()[city.slug] {
                    normals[city.slug] = kept
                    continue
                }
                guard let answer = try await answer(for: city, locate: locate) else { continue }
                let computed = try ArchiveNormals.normals(from: answer)
                try store?.keep(computed, of: city.slug)
                normals[city.slug] = computed
            } catch {
                let problem = (error as? IsobarError)?.description ?? (error as? SQLiteHistory.Unavailable)?.error.description ?? "\(error)"
                log("\(city.name): no climate normals this run: \(problem)")
            }
        }
        return normals
    }

    /// The archive's answer for the city: kept, or asked for now; nil when it can be neither.
    private func answer(for city: CityConfig, locate: (CityConfig) async throws -> CityConfig) async throws -> RawResponse? {
        for store in stores {
            if let kept = try store.read(slug: city.slug, endpoint: .openMeteoArchive) { return kept }
        }
        guard let client else { return nil }
        let located = try await locate(city)
        guard located.coordinates != nil else { return nil }
        let response: HTTPResponse
        do {
            response = try await client.get(requests.request(for: located))
        } catch let failure as RequestFailure {
            throw OpenMeteoFailure.error(failure, endpoint: .openMeteoArchive)
        }
        // Checked before it is kept: an answer that cannot be averaged is not kept for good.
        _ = try ArchiveNormals.normals(from: RawResponse(endpoint: .openMeteoArchive, body: response.body, fetchedAt: cache.now()))
        return try cache.save(response.body, city.slug, .openMeteoArchive)
    }
}

extension NormalsFetcher {
    /// The run's normals step: the file read and checked now (a bad row is a config
    /// error); for the archive, the run's HTTP client and rate limiter (nil offline or
    /// from snapshots) with Open-Meteo's call budget — the chain's when Open-Meteo is in
    /// it, else one of its own.
    static func make(_ config: SiteConfig, offline: Bool, live: ProviderSetup.Live?, budgets: [ProviderKind: CallBudget],
                     environment: BuildEnvironment) throws -> NormalsFetcher {
        var fromFile: [String: ClimateNormals] = [:]
        if case .file(let file, _) = config.normals {
            fromFile = try NormalsFile.load(from: file)
        }
        let cache = ProviderSetup.responseCache(config, environment)
        var stores = [cache.store]
        if config.providersUsed.contains(.snapshot) { stores.append(ResponseStore(root: config.snapshotDirectory)) }
        var client: PoliteClient?
        // From snapshots nothing is fetched (the run's client may be there for the map's tiles).
        if case .archive = config.normals, !offline, config.provider != .snapshot, let live {
            // Open-Meteo's budget: the chain's, when Open-Meteo is in it (one budget per ledger).
            let budget = budgets[.openMeteo]
                ?? CallBudget(provider: ProviderKind.openMeteo.rawValue, limits: config.openMeteo.limits, cache: config.cache.directory, now: environment.now)
            client = PoliteClient(client: live.http, limiter: live.limiter, retry: environment.retry, clock: environment.clock,
                                  budget: budget, tally: live.tally)
        }
        return NormalsFetcher(settings: config.normals, fromFile: fromFile, requests: NormalsRequests(archiveURL: config.openMeteo.archiveURL),
                              stores: stores, cache: cache, client: client, log: environment.log)
    }
}
