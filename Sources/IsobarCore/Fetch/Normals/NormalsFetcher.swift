import Foundation

/// The run's normals step (README, "Compared with normal"): each city's climate normals,
/// from the site's normals file, or (`normals: archive`) from the history's `normal`
/// table; failing that from the archive's answer kept in the cache (or the snapshots);
/// failing that asked of Open-Meteo's historical weather API, a few cities at once
/// through the run's politeness layer and Open-Meteo's call budget, and kept for good
/// once it averages (`ArchiveNormals`). A city whose normals cannot be had shows none,
/// is logged and reported, and is asked again on a later run (`NormalsRetry`); nothing
/// here fails the build.
struct NormalsFetcher: Sendable {
    /// How many cities' archives are asked at once: each answer is large and never
    /// urgent, but ten new cities against a slow archive must not take ten minutes.
    static let width = 4

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

    /// A city's answer this run.
    private enum Answer: Sendable {
        case normals(ClimateNormals, asked: Bool)
        /// Nothing kept and nothing may be asked (offline, snapshots, no coordinates).
        case none
        case failed(String)
        /// An earlier failure holds the city back until `until`.
        case waiting(String, until: Date)
    }

    /// Each city's normals, by slug, and those without and why; `locate` gives a city its
    /// coordinates (the stored geocoding answer, or the geocoder's).
    func run(_ cities: [CityConfig], store: (any NormalsStore)?,
             locate: @escaping @Sendable (CityConfig) async throws -> CityConfig) async -> NormalsOutcome {
        var outcome = NormalsOutcome()
        switch settings {
        case .off: return outcome
        case .file:
            outcome.normals = fromFile
            return outcome
        case .archive: break
        }
        // Those kept, read at once; a read that fails is each city's failure, as it was.
        let kept = Result { try store?.normals(of: cities.map(\.slug)) ?? [:] }
        var toAsk: [CityConfig] = []
        for city in cities {
            do {
                if let normals = try kept.get()[city.slug] { outcome.normals[city.slug] = normals } else { toAsk.append(city) }
            } catch {
                outcome.missing.append(.init(slug: city.slug, name: city.name, reason: Self.problem(error), nextTry: nil))
            }
        }
        let old = NormalsRetry.load(from: cache.store.root)
        var retry = old
        let answers = await answers(for: toAsk, retry: old, locate: locate)
        let now = cache.now()
        for city in toAsk {
            switch answers[city.slug] ?? .none {
            case .normals(let normals, let asked):
                do {
                    try store?.keep(normals, of: city.slug)
                    outcome.normals[city.slug] = normals
                    if asked { retry.succeeded(city.slug) }
                } catch {
                    outcome.missing.append(.init(slug: city.slug, name: city.name, reason: Self.problem(error), nextTry: nil))
                }
            case .none:
                continue
            case .failed(let reason):
                retry.failed(city.slug, reason: reason, at: now)
                outcome.missing.append(.init(slug: city.slug, name: city.name, reason: reason, nextTry: retry.nextTry(city.slug)))
            case .waiting(let reason, let until):
                outcome.missing.append(.init(slug: city.slug, name: city.name, reason: reason, nextTry: until))
            }
        }
        for missing in outcome.missing {
            let again = missing.nextTry.map { "; asked again after \(AtomDate.string($0))" } ?? ""
            log("\(missing.name): no climate normals this run: \(missing.reason)\(again)")
        }
        do {
            try retry.save(to: cache.store.root, replacing: old)
        } catch {
            log("warning: \(Self.problem(error))")
        }
        return outcome
    }

    /// Each city's answer, `width` cities at a time.
    private func answers(for cities: [CityConfig], retry: NormalsRetry,
                         locate: @escaping @Sendable (CityConfig) async throws -> CityConfig) async -> [String: Answer] {
        await withTaskGroup(of: (String, Answer).self) { group in
            var answers: [String: Answer] = [:]
            var waiting = cities.makeIterator()
            func start(_ city: CityConfig) {
                group.addTask { (city.slug, await self.answer(for: city, retry: retry, locate: locate)) }
            }
            for _ in 0..<Self.width {
                guard let city = waiting.next() else { break }
                start(city)
            }
            while let (slug, answer) = await group.next() {
                answers[slug] = answer
                if !Task.isCancelled, let city = waiting.next() { start(city) }
            }
            return answers
        }
    }

    /// The city's normals from an answer kept, or asked for now.
    private func answer(for city: CityConfig, retry: NormalsRetry, locate: (CityConfig) async throws -> CityConfig) async -> Answer {
        do {
            for store in stores {
                guard let kept = try store.read(slug: city.slug, endpoint: .openMeteoArchive) else { continue }
                do {
                    return .normals(try ArchiveNormals.normals(from: kept), asked: false)
                } catch where store.root == cache.store.root {
                    // An answer an earlier version kept without checking it: gone, and asked again.
                    try? FileManager.default.removeItem(at: store.file(for: city.slug, .openMeteoArchive))
                    break
                }
            }
            guard let client else { return .none }
            if let until = retry.nextTry(city.slug), until > cache.now(), let reason = retry.entries[city.slug]?.reason {
                return .waiting(reason, until: until)
            }
            let located = try await locate(city)
            guard located.coordinates != nil else { return .none }
            let response: HTTPResponse
            do {
                response = try await client.get(requests.request(for: located))
            } catch let failure as RequestFailure {
                throw OpenMeteoFailure.error(failure, endpoint: .openMeteoArchive)
            }
            // Checked before it is kept: an answer that cannot be averaged is not kept.
            let normals = try ArchiveNormals.normals(from: RawResponse(endpoint: .openMeteoArchive, body: response.body, fetchedAt: cache.now()))
            _ = try cache.save(response.body, city.slug, .openMeteoArchive)
            return .normals(normals, asked: true)
        } catch {
            return .failed(Self.problem(error))
        }
    }

    private static func problem(_ error: any Error) -> String {
        (error as? IsobarError)?.description ?? (error as? SQLiteHistory.Unavailable)?.error.description ?? "\(error)"
    }
}

/// What the normals step found: each city's normals, and the cities left without.
struct NormalsOutcome: Sendable {
    struct Missing: Sendable, Equatable {
        var slug: String
        var name: String
        var reason: String
        /// When the archive is asked again for the city; nil when that is not up to a wait.
        var nextTry: Date?
    }

    var normals: [String: ClimateNormals] = [:]
    var missing: [Missing] = []
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
