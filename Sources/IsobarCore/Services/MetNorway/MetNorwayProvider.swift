import Foundation

/// `provider: met-norway`: MET Norway's Locationforecast 2.0, keyless, through the run's
/// HTTP client, rate limit, retries, budget and cache like every provider, and on the
/// terms MET sets (https://api.met.no/doc/TermsOfService): an identifying User-Agent
/// (`MetNorwayRequests`), nothing asked again before the last answer's `Expires`,
/// `If-Modified-Since` after it (a 304 keeps the stored body), no requests at the whole
/// hour (`OffTheHour`), and a deprecated product (203) said out loud.
public struct MetNorwayProvider: ForecastProvider {
    public var name: String { "met-norway" }
    let requests: MetNorwayRequests
    /// nil offline: then nothing can be fetched at all.
    let client: PoliteClient?
    let cache: ResponseCache
    let offTheHour: OffTheHour?
    /// The 203 warning, said once per run however many cities get one.
    let deprecation: Locked<Bool> = Locked(false)
    let log: @Sendable (String) -> Void

    init(requests: MetNorwayRequests, client: PoliteClient?, cache: ResponseCache, offTheHour: OffTheHour?,
         log: @escaping @Sendable (String) -> Void) {
        self.requests = requests
        self.client = client
        self.cache = cache
        self.offTheHour = offTheHour
        self.log = log
    }

    static let endpoint = Endpoint.metNorwayForecast

    public func fetch(_ city: CityConfig) async throws -> CityResponses {
        let response: RawResponse
        if let client {
            response = try await cachedOrFetched(city, client)
        } else {
            guard let stored = try cache.any(city.slug, Self.endpoint) else { throw cache.nothingOffline(city.slug) }
            response = stored
        }
        var responses = CityResponses(city: city, responses: [Self.endpoint: response])
        responses.deprecated = cache.headers(city.slug, Self.endpoint)?.status == 203
        return responses
    }

    /// Kept until MET's `Expires` (its terms: no request before it) or, when the site asks
    /// for less, the city's refresh interval, whichever is later.
    func isFresh(_ fetchedAt: Date, _ headers: CacheHeaders?, for city: CityConfig) -> Bool {
        if let expiry = headers?.expiry, cache.now() < expiry { return true }
        return cache.isFresh(fetchedAt, for: city)
    }

    private func cachedOrFetched(_ city: CityConfig, _ client: PoliteClient) async throws -> RawResponse {
        let stored = try cache.any(city.slug, Self.endpoint)
        let headers = stored == nil ? nil : cache.headers(city.slug, Self.endpoint)
        if let stored, isFresh(stored.fetchedAt, headers, for: city) { return stored }
        try await offTheHour?.wait()
        let response: HTTPResponse
        do {
            response = try await client.get(requests.request(for: city, lastModified: headers?.lastModified))
        } catch let failure as RequestFailure {
            throw MetNorwayFailure.error(failure, userAgent: requests.userAgent)
        }
        if response.status == 304, let stored {
            // Unchanged: the stored body is current again until the new `Expires`.
            let renewed = CacheHeaders(lastModified: response.headers["Last-Modified"] ?? headers?.lastModified,
                                       expires: response.headers["Expires"], status: headers?.status)
            return try cache.save(stored.body, city.slug, Self.endpoint, headers: renewed)
        }
        if response.status == 203 { warnDeprecated() }
        do {
            // A body the build could not read never replaces a good one.
            _ = try MetNorwayDecoder(describe: { "\($0)" }).body(RawResponse(endpoint: Self.endpoint, body: response.body, fetchedAt: Date()), city: city)
        } catch let error as IsobarError {
            throw IsobarError(step: .fetch, message: "\(requests.baseURL.path)/complete: malformed response: \(error.message)")
        }
        return try cache.save(response.body, city.slug, Self.endpoint, headers: CacheHeaders(response))
    }

    /// MET's terms: a 203 means the product is deprecated and "should be logged and/or
    /// shown as a warning"; it ends usually a month later.
    private func warnDeprecated() {
        let first = deprecation.withLock { warned in defer { warned = true }; return !warned }
        guard first else { return }
        log("warning: met-norway: MET Norway answers HTTP 203: Locationforecast 2.0 `complete` is deprecated and will be withdrawn, usually within a month; pages are built, but update Isobar (or `met_norway.base_url` in the config) before then (see https://api.met.no/weatherapi/locationforecast/2.0/documentation)")
    }

    public func refreshCandidate(_ city: CityConfig) -> RefreshPlan.Candidate? {
        guard client != nil else { return nil }
        let fetchedAt = cache.fetchTimes(city.slug)[Self.endpoint]
        let due = fetchedAt.map { !isFresh($0, cache.headers(city.slug, Self.endpoint), for: city) } ?? true
        return RefreshPlan.Candidate(slug: city.slug, fetchedAt: fetchedAt, calls: due ? 1 : 0)
    }

    public func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses? {
        guard let stored = try cache.any(city.slug, Self.endpoint), cache.now().timeIntervalSince(stored.fetchedAt) <= maxAge else { return nil }
        return CityResponses(city: city, responses: [Self.endpoint: stored])
    }
}

/// MET Norway's failures in words, with what its terms say each one usually means.
enum MetNorwayFailure {
    static func error(_ failure: RequestFailure, userAgent: String) -> IsobarError {
        let what = "MET Norway Locationforecast"
        let tries = failure.afterAttempts
        switch failure.cause {
        case .transport(let transport):
            return IsobarError(step: .fetch, message: "\(what): service unreachable\(tries): \(transport.summary)",
                               hint: "check the network and `met_norway.base_url`; the next run will try again")
        case .status(let response):
            switch response.status {
            case 403:
                return IsobarError(
                    step: .fetch, message: "\(what): MET Norway refused the request (HTTP 403 Forbidden); it was sent as User-Agent \"\(userAgent)\"",
                    hint: "MET refuses clients it cannot identify: make `contact:` in isobar.yml an e-mail or web address where you can be reached; if it is one, this address may be blocked for traffic against MET's terms (https://api.met.no/doc/TermsOfService): write to MET")
            case 429:
                return IsobarError(
                    step: .fetch, message: "\(what): MET Norway is throttling this client\(tries) (HTTP 429 Too Many Requests)",
                    hint: "lower openweather.requests_per_minute (it limits every provider) or give cities a longer `refresh:`; MET also throttles clients whose User-Agent does not identify them; the next run will try again")
            case 500...599:
                return IsobarError(step: .fetch, message: "\(what): MET Norway service unavailable\(tries) (HTTP \(response.status))",
                                   hint: "the next run will try again")
            default:
                let detail = String(decoding: response.body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return IsobarError(step: .fetch, message: "\(what): MET Norway refused the request (HTTP \(response.status)\(detail.isEmpty ? "" : ": \(detail)"))",
                                   hint: "check `met_norway.base_url` and the city's `lat:`/`lon:`")
            }
        }
    }
}
