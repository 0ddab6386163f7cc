import Foundation

/// `provider: openweather`: live forecasts, through the response cache.
///
/// For each city: a fresh cached forecast is used without a request; otherwise One Call
/// 3.0 (or the free 2.5 pair, see `APIModeSwitch`) and Air Pollution are requested
/// through the run's `PoliteClient`, checked to be JSON, and stored. With `offline`,
/// nothing is requested and the cache is used whatever its age.
public struct OpenWeatherProvider: ForecastProvider, Geocoder {
    public var name: String { "openweather" }
    let requests: OpenWeatherRequests?
    let client: PoliteClient?
    let cache: ResponseCache
    let modes: APIModeSwitch
    let keyVariable: String
    let redaction: Redaction
    /// The configured choice: a forced mode also decides which cached responses count.
    let api: OpenWeatherSettings.API

    /// `requests` and `client` are nil offline: then nothing can be fetched at all.
    public init(
        requests: OpenWeatherRequests?, client: PoliteClient?, cache: ResponseCache,
        modes: APIModeSwitch, keyVariable: String, api: OpenWeatherSettings.API
    ) {
        self.api = api
        self.requests = requests
        self.client = client
        self.cache = cache
        self.modes = modes
        self.keyVariable = keyVariable
        self.redaction = Redaction(secret: requests?.apiKey)
    }

    public func fetch(_ city: CityConfig) async throws -> CityResponses {
        guard let requests, let client else { return try cachedOnly(city) }
        if let rejection = await modes.keyRejection { throw rejection }

        var responses: [Endpoint: RawResponse] = [:]
        if api != .free, let oneCall = try cache.fresh(city, .oneCall) {
            responses[.oneCall] = oneCall
        } else if api != .onecall3, let current = try cache.fresh(city, .currentWeather),
            let forecast = try cache.fresh(city, .fiveDayForecast)
        {
            responses[.currentWeather] = current
            responses[.fiveDayForecast] = forecast
        } else {
            for (endpoint, response) in try await fetchForecast(city, requests, client) {
                responses[endpoint] = response
            }
        }
        responses[.airPollution] = try await cachedOrFetched(.airPollution, city, requests, client)
        return CityResponses(city: city, responses: responses)
    }

    /// One Call, or the free pair, as the run's mode says; probing One Call when undecided.
    private func fetchForecast(_ city: CityConfig, _ requests: OpenWeatherRequests, _ client: PoliteClient) async throws -> [Endpoint: RawResponse] {
        switch await modes.assignment() {
        case .use(.oneCall):
            return [.oneCall: try await fetchAndStore(.oneCall, city, requests, client)]
        case .use(.free):
            return try await fetchFreePair(city, requests, client)
        case .probe:
            do {
                let response = try await fetchAndStore(.oneCall, city, requests, client)
                await modes.settle(.oneCall)
                return [.oneCall: response]
            } catch is ProbeOutcome {
                await modes.settle(.free)
                return try await fetchFreePair(city, requests, client)
            } catch {
                await modes.settle(nil)
                throw error
            }
        }
    }

    private func fetchFreePair(_ city: CityConfig, _ requests: OpenWeatherRequests, _ client: PoliteClient) async throws -> [Endpoint: RawResponse] {
        async let current = fetchAndStore(.currentWeather, city, requests, client)
        async let forecast = fetchAndStore(.fiveDayForecast, city, requests, client)
        return [.currentWeather: try await current, .fiveDayForecast: try await forecast]
    }

    private func cachedOrFetched(_ endpoint: Endpoint, _ city: CityConfig, _ requests: OpenWeatherRequests, _ client: PoliteClient) async throws -> RawResponse {
        if let cached = try cache.fresh(city, endpoint) { return cached }
        return try await fetchAndStore(endpoint, city, requests, client)
    }

    /// Marks the One Call 401 that means "no subscription" while probing, so the caller
    /// can switch modes instead of failing the city.
    private struct ProbeOutcome: Error {}

    private func fetchAndStore(_ endpoint: Endpoint, _ city: CityConfig, _ requests: OpenWeatherRequests, _ client: PoliteClient) async throws -> RawResponse {
        if let rejection = await modes.keyRejection { throw rejection }
        let response: HTTPResponse
        do {
            response = try await client.get(requests.request(endpoint, for: city))
        } catch let failure as RequestFailure {
            if case .status(let answer) = failure.cause {
                if endpoint == .oneCall, OpenWeatherFailure.isMissingOneCallSubscription(answer), await modes.isProbing {
                    throw ProbeOutcome()
                }
                let error = OpenWeatherFailure.error(failure, endpoint: endpoint, city: city, keyVariable: keyVariable, redaction: redaction)
                if OpenWeatherFailure.isKeyRejected(answer) { await modes.rejectKey(error) }
                throw error
            }
            throw OpenWeatherFailure.error(failure, endpoint: endpoint, city: city, keyVariable: keyVariable, redaction: redaction)
        }
        if let malformed = OpenWeatherFailure.malformed(response.body, endpoint: endpoint, city: city) { throw malformed }
        do {
            try OpenWeatherDecoder(units: city.units).validate(RawResponse(endpoint: endpoint, body: response.body, fetchedAt: Date()))
        } catch let error as IsobarError {
            throw IsobarError(step: .fetch, message: "\(OpenWeatherRequests.path(for: endpoint)): malformed response: \(error.message)")
        }
        if endpoint == .geocode, OpenWeatherFailure.isEmptyList(response.body) {
            // Not cached: once the config's spelling is fixed, the next run asks again.
            throw IsobarError(
                step: .locate, message: "city not found: OpenWeather geocoding has no match for \"\([city.name, city.country].joined(separator: ","))\"",
                hint: "check the name's spelling and the country code, or give the city `lat:` and `lon:`")
        }
        return try cache.save(response.body, city.slug, endpoint)
    }

    /// `--offline`: whatever the cache holds, however old; nothing at all is a clear failure.
    private func cachedOnly(_ city: CityConfig) throws -> CityResponses {
        var responses: [Endpoint: RawResponse] = [:]
        for endpoint in [Endpoint.oneCall, .currentWeather, .fiveDayForecast, .airPollution] {
            responses[endpoint] = try cache.any(city.slug, endpoint)
        }
        if responses[.oneCall] != nil {
            responses[.currentWeather] = nil
            responses[.fiveDayForecast] = nil
        }
        let complete = responses[.oneCall] != nil || (responses[.currentWeather] != nil && responses[.fiveDayForecast] != nil)
        guard complete else { throw cache.nothingOffline(city.slug) }
        return CityResponses(city: city, responses: responses)
    }

    // MARK: Call budget

    public func refreshCandidate(_ city: CityConfig) -> RefreshPlan.Candidate? {
        guard requests != nil else { return nil }
        let times = cache.fetchTimes(city.slug)
        let oneCall = api != .free ? times[.oneCall] : nil
        let pair = api != .onecall3 ? [times[.currentWeather], times[.fiveDayForecast]].compactMap { $0 }.min() : nil
        let pairComplete = times[.currentWeather] != nil && times[.fiveDayForecast] != nil
        // The forecast `fetch` would use: the fresher of One Call and the free pair.
        let fetchedAt = [oneCall, pairComplete ? pair : nil].compactMap { $0 }.max()
        var calls = city.coordinates == nil && times[.geocode] == nil ? 1 : 0
        if fetchedAt.map({ !cache.isFresh($0, for: city) }) ?? true {
            // A key without One Call uses the free pair: its cache holds the pair, not One Call.
            let free = api == .free || (api == .auto && times[.oneCall] == nil && pairComplete)
            calls += free ? 2 : 1
        }
        if times[.airPollution].map({ !cache.isFresh($0, for: city) }) ?? true { calls += 1 }
        return RefreshPlan.Candidate(slug: city.slug, fetchedAt: fetchedAt, calls: calls)
    }

    // MARK: Stale data

    public func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses? {
        let now = cache.now()
        func young(_ endpoint: Endpoint) throws -> RawResponse? {
            guard let response = try cache.any(city.slug, endpoint), now.timeIntervalSince(response.fetchedAt) <= maxAge else { return nil }
            return response
        }
        var responses: [Endpoint: RawResponse] = [:]
        if let oneCall = try young(.oneCall) {
            responses[.oneCall] = oneCall
        } else if let current = try young(.currentWeather), let forecast = try young(.fiveDayForecast) {
            responses[.currentWeather] = current
            responses[.fiveDayForecast] = forecast
        } else {
            return nil
        }
        responses[.airPollution] = try young(.airPollution)
        return CityResponses(city: city, responses: responses)
    }

    // MARK: Geocoder

    public func geocode(_ city: CityConfig) async throws -> RawResponse? {
        guard let requests, let client else { return nil }
        return try await fetchAndStore(.geocode, city, requests, client)
    }
}
