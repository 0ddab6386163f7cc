import Foundation

/// `provider: nws`: the US National Weather Service's API, keyless, through the run's HTTP
/// client, rate limit, retries, budget and cache like every provider. A city's point is
/// asked once (`/points/{lat},{lon}`: its forecast office's grid square and time zone) and
/// its answer kept for good, as a geocoding answer is (asked again when the city's
/// coordinates change, or when a URL it names answers 404); then the three forecast URLs
/// it names (hourly periods, 12-hour periods with their text, the grid's amounts), each
/// kept for the city's refresh interval.
public struct NWSProvider: ForecastProvider {
    public var name: String { "nws" }
    let requests: NWSRequests
    /// nil offline: then nothing can be fetched at all.
    let client: PoliteClient?
    let cache: ResponseCache

    init(requests: NWSRequests, client: PoliteClient?, cache: ResponseCache) {
        self.requests = requests
        self.client = client
        self.cache = cache
    }

    static let forecasts: [Endpoint] = [.nwsForecastHourly, .nwsForecast, .nwsGrid]

    private func decoder() -> NWSDecoder { NWSDecoder(describe: { "\($0)" }) }

    public func fetch(_ city: CityConfig) async throws -> CityResponses {
        guard let client else {
            guard let stored = try stored(city, maxAge: nil) else { throw cache.nothingOffline(city.slug) }
            return stored
        }
        guard let (latitude, longitude) = city.coordinates else {
            throw IsobarError(step: .fetch, message: "NWS forecasts are asked for by coordinates, and the city has none",
                              hint: "give the city `lat:` and `lon:`")
        }
        let pointRequest = requests.points(latitude: latitude, longitude: longitude)
        if let stored = try cache.any(city.slug, .nwsPoints),
            NWSRequests.samePoint((try? decoder().points(stored, city: city))?.geometry?.coordinates, latitude: latitude, longitude: longitude)
        {
            do {
                return try await forecasts(stored, city, client)
            } catch is ForecastGone {
                // A URL the stored answer names is gone (NWS redrew the office's grid):
                // the point is asked again, once, below, and its new URLs tried.
            }
        }
        do {
            return try await forecasts(try await fetchAndStore(pointRequest, city, client), city, client)
        } catch let gone as ForecastGone {
            throw gone.error
        }
    }

    /// A forecast URL answered 404 (`error` says so).
    private struct ForecastGone: Error {
        var error: IsobarError
    }

    /// The point's three forecasts, each cached or fetched.
    private func forecasts(_ point: RawResponse, _ city: CityConfig, _ client: PoliteClient) async throws -> CityResponses {
        let links = try decoder().links(point, city: city)
        async let hourly = cachedOrFetched(.nwsForecastHourly, links, city, client)
        async let periods = cachedOrFetched(.nwsForecast, links, city, client)
        async let grid = cachedOrFetched(.nwsGrid, links, city, client)
        return CityResponses(city: city, responses: [.nwsPoints: point, .nwsForecastHourly: try await hourly,
                                                     .nwsForecast: try await periods, .nwsGrid: try await grid])
    }

    private func cachedOrFetched(_ endpoint: Endpoint, _ links: [Endpoint: String], _ city: CityConfig, _ client: PoliteClient) async throws -> RawResponse {
        if let cached = try cache.fresh(city, endpoint) { return cached }
        guard let link = links[endpoint], let request = requests.forecast(endpoint, url: link) else {
            throw IsobarError(
                step: .fetch, path: cache.store.file(for: city.slug, .nwsPoints).path,
                message: "NWS's point answer names \(QuotedInput.shortened(links[endpoint] ?? "nothing", longestWord: 80)) for the forecast, not an address on \(requests.baseURL.absoluteString)",
                hint: "delete the file to ask NWS again, or check `nws.base_url`")
        }
        return try await fetchAndStore(request, city, client)
    }

    private func fetchAndStore(_ request: HTTPRequest, _ city: CityConfig, _ client: PoliteClient) async throws -> RawResponse {
        let endpoint = request.endpoint ?? .nwsPoints
        let response: HTTPResponse
        do {
            response = try await client.get(request)
        } catch let failure as RequestFailure {
            let error = NWSFailure.error(failure, endpoint: endpoint, city: city, userAgent: requests.userAgent)
            if case .status(let response) = failure.cause, response.status == 404, endpoint != .nwsPoints { throw ForecastGone(error: error) }
            throw error
        }
        do {
            // A body the build could not read never replaces a good one.
            try decoder().validate(RawResponse(endpoint: endpoint, body: response.body, fetchedAt: Date()), city: city)
        } catch let error as IsobarError {
            throw IsobarError(step: .fetch, message: "\(request.url.path): malformed response: \(error.message)")
        }
        return try cache.save(response.body, city.slug, endpoint)
    }

    /// The stored point answer and forecasts; with `maxAge`, only forecasts that young.
    /// Nil without the point or the hourly forecast, which a page needs.
    private func stored(_ city: CityConfig, maxAge: TimeInterval?) throws -> CityResponses? {
        guard let point = try cache.any(city.slug, .nwsPoints) else { return nil }
        var responses: [Endpoint: RawResponse] = [.nwsPoints: point]
        for endpoint in Self.forecasts {
            guard let response = try cache.any(city.slug, endpoint) else { continue }
            if let maxAge, cache.now().timeIntervalSince(response.fetchedAt) > maxAge { continue }
            responses[endpoint] = response
        }
        return responses[.nwsForecastHourly] == nil ? nil : CityResponses(city: city, responses: responses)
    }

    public func refreshCandidate(_ city: CityConfig) -> RefreshPlan.Candidate? {
        guard client != nil else { return nil }
        let times = cache.fetchTimes(city.slug)
        var calls = times[.nwsPoints] == nil ? 1 : 0
        for endpoint in Self.forecasts where times[endpoint].map({ !cache.isFresh($0, for: city) }) ?? true { calls += 1 }
        return RefreshPlan.Candidate(slug: city.slug, fetchedAt: times[.nwsForecastHourly], calls: calls)
    }

    public func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses? {
        try stored(city, maxAge: maxAge)
    }
}

/// NWS's failures in words. NWS answers errors as problem details
/// (`application/problem+json`: `title`, `detail`, `status`).
enum NWSFailure {
    private struct Problem: Decodable {
        var title: String?
        var detail: String?
    }

    static func error(_ failure: RequestFailure, endpoint: Endpoint, city: CityConfig, userAgent: String) -> IsobarError {
        let what = "NWS \(endpoint.apiPath)"
        let tries = failure.afterAttempts
        switch failure.cause {
        case .transport(let transport):
            return IsobarError(step: .fetch, message: "\(what): service unreachable\(tries): \(transport.summary)",
                               hint: "check the network and `nws.base_url`; the next run will try again")
        case .status(let response):
            let problem = try? JSONDecoder().decode(Problem.self, from: response.body)
            let said = [problem?.title, problem?.detail].compactMap { $0 }.joined(separator: ": ")
            let status = "HTTP \(response.status)\(said.isEmpty ? "" : ": \(QuotedInput.shortened(String(said.prefix(300)), longestWord: 80))")"
            switch response.status {
            case 404 where endpoint == .nwsPoints:
                let point = city.coordinates.map { "\(RequestCoordinate.text($0.latitude)),\(RequestCoordinate.text($0.longitude))" } ?? "?"
                return IsobarError(
                    step: .fetch, message: "NWS has no forecast for \(city.name) (\(city.country)) at \(point): the National Weather Service covers only the United States and its territories (\(status))",
                    hint: "check \(city.name)'s `lat:` and `lon:`; for cities outside the US use `provider: open-meteo` or `met-norway`")
            case 403:
                return IsobarError(
                    step: .fetch, message: "\(what): NWS refused the request (\(status)); it was sent as User-Agent \"\(userAgent)\"",
                    hint: "NWS refuses clients it cannot identify: make `contact:` in isobar.yml an e-mail or web address where you can be reached")
            case 429:
                return IsobarError(step: .fetch, message: "\(what): NWS is throttling this client\(tries) (\(status))",
                                   hint: "lower openweather.requests_per_minute (it limits every provider) or give cities a longer `refresh:`; the next run will try again")
            case 500...599:
                return IsobarError(step: .fetch, message: "\(what): NWS service unavailable\(tries) (\(status))", hint: "the next run will try again")
            default:
                return IsobarError(step: .fetch, message: "\(what): NWS refused the request (\(status))",
                                   hint: "check `nws.base_url` and the city's `lat:`/`lon:`")
            }
        }
    }
}
