import Foundation

/// `provider: open-meteo`: keyless forecasts from Open-Meteo, with the same HTTP client,
/// rate limit, retries, cache, `--offline` and failure rules as OpenWeather.
public struct OpenMeteoProvider: ForecastProvider, Geocoder {
    public var name: String { "open-meteo" }
    let requests: OpenMeteoRequests
    /// nil offline: then nothing can be fetched at all.
    let client: PoliteClient?
    let cache: ResponseCache

    public init(requests: OpenMeteoRequests, client: PoliteClient?, cache: ResponseCache) {
        self.requests = requests
        self.client = client
        self.cache = cache
    }

    static let required: [Endpoint] = [.openMeteoForecast, .openMeteoAirQuality]

    public func fetch(_ city: CityConfig) async throws -> CityResponses {
        guard let client else { return try cachedOnly(city) }
        async let forecast = cachedOrFetched(.openMeteoForecast, city, client)
        async let air = cachedOrFetched(.openMeteoAirQuality, city, client)
        return CityResponses(city: city, responses: [.openMeteoForecast: try await forecast, .openMeteoAirQuality: try await air])
    }

    private func cachedOrFetched(_ endpoint: Endpoint, _ city: CityConfig, _ client: PoliteClient) async throws -> RawResponse {
        if let cached = try cache.fresh(city, endpoint) { return cached }
        return try await fetchAndStore(endpoint, city, client)
    }

    private func fetchAndStore(_ endpoint: Endpoint, _ city: CityConfig, _ client: PoliteClient) async throws -> RawResponse {
        let response: HTTPResponse
        do {
            response = try await client.get(requests.request(endpoint, for: city))
        } catch let failure as RequestFailure {
            throw OpenMeteoFailure.error(failure, endpoint: endpoint)
        }
        if let malformed = OpenWeatherFailure.malformed(response.body, endpoint: endpoint, city: city) { throw malformed }
        do {
            try OpenMeteoDecoder(units: city.units, describe: { "\($0)" })
                .validate(RawResponse(endpoint: endpoint, body: response.body, fetchedAt: Date()))
        } catch let error as IsobarError {
            throw IsobarError(step: .fetch, message: "\(endpoint.apiPath): malformed response: \(error.message)")
        }
        if endpoint == .openMeteoGeocode,
            (try? JSONDecoder().decode(OpenMeteoGeocodeBody.self, from: response.body))?.results?.isEmpty ?? true
        {
            // Not cached: once the config's spelling is fixed, the next run asks again.
            throw IsobarError(
                step: .locate, message: "city not found: Open-Meteo geocoding has no match for \"\(city.name)\"",
                hint: "check the name's spelling, or give the city `lat:` and `lon:`")
        }
        return try cache.save(response.body, city.slug, endpoint)
    }

    private func cachedOnly(_ city: CityConfig) throws -> CityResponses {
        var responses: [Endpoint: RawResponse] = [:]
        for endpoint in Self.required { responses[endpoint] = try cache.any(city.slug, endpoint) }
        guard responses[.openMeteoForecast] != nil else { throw cache.nothingOffline(city.slug) }
        return CityResponses(city: city, responses: responses)
    }

    public func refreshCandidate(_ city: CityConfig) -> RefreshPlan.Candidate? {
        guard client != nil else { return nil }
        let times = cache.fetchTimes(city.slug)
        var calls = city.coordinates == nil && times[.openMeteoGeocode] == nil ? 1 : 0
        for endpoint in Self.required where times[endpoint].map({ !cache.isFresh($0, for: city) }) ?? true { calls += 1 }
        return RefreshPlan.Candidate(slug: city.slug, fetchedAt: times[.openMeteoForecast], calls: calls)
    }

    public func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses? {
        let now = cache.now()
        guard let forecast = try cache.any(city.slug, .openMeteoForecast), now.timeIntervalSince(forecast.fetchedAt) <= maxAge else {
            return nil
        }
        var responses: [Endpoint: RawResponse] = [.openMeteoForecast: forecast]
        if let air = try cache.any(city.slug, .openMeteoAirQuality), now.timeIntervalSince(air.fetchedAt) <= maxAge {
            responses[.openMeteoAirQuality] = air
        }
        return CityResponses(city: city, responses: responses)
    }

    public func geocode(_ city: CityConfig) async throws -> RawResponse? {
        guard let client else { return nil }
        return try await fetchAndStore(.openMeteoGeocode, city, client)
    }
}

/// Open-Meteo's failures in words: it answers errors as `{"error": true, "reason": …}`.
enum OpenMeteoFailure {
    static func error(_ failure: RequestFailure, endpoint: Endpoint) -> IsobarError {
        let tries = failure.afterAttempts
        switch failure.cause {
        case .transport(let transport):
            return IsobarError(step: .fetch, message: "\(endpoint.apiPath): service unreachable\(tries): \(transport.summary)",
                               hint: "check the network and the open_meteo URLs; the next run will try again")
        case .status(let response):
            let reason = (try? JSONDecoder().decode(OpenMeteoErrorBody.self, from: response.body))?.reason.map { ": \(String($0.prefix(300)))" } ?? ""
            let status = "HTTP \(response.status)\(reason)"
            switch response.status {
            case 429:
                return IsobarError(step: .fetch, message: "\(endpoint.apiPath): request quota exceeded\(tries) (\(status))",
                                   hint: "lower openweather.requests_per_minute (it limits every provider); the next run will try again")
            case 500...599:
                return IsobarError(step: .fetch, message: "\(endpoint.apiPath): Open-Meteo service unavailable\(tries) (\(status))",
                                   hint: "the next run will try again")
            case 404:
                return IsobarError(step: .fetch, message: "\(endpoint.apiPath): not found (\(status))", hint: "check the open_meteo URLs")
            default:
                return IsobarError(step: .fetch, message: "\(endpoint.apiPath): Open-Meteo refused the request (\(status))")
            }
        }
    }
}
