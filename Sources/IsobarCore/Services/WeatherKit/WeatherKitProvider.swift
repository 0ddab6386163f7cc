import Foundation

/// `provider: weatherkit`: Apple's WeatherKit REST API through the run's HTTP client, rate
/// limit, retries, budget and cache like every provider: one request per city (every data
/// set in one body, `weatherkit.json`), each carrying the run's token (`WeatherKitToken`).
public struct WeatherKitProvider: ForecastProvider {
    public var name: String { "weatherkit" }
    let requests: WeatherKitRequests
    /// Both nil offline: then nothing can be fetched, and no key is needed.
    let token: WeatherKitToken?
    let client: PoliteClient?
    let cache: ResponseCache
    /// For messages about a refused token: the ids it was made from (none of them secret).
    let settings: WeatherKitSettings

    init(requests: WeatherKitRequests, token: WeatherKitToken?, client: PoliteClient?, cache: ResponseCache, settings: WeatherKitSettings) {
        self.requests = requests
        self.token = token
        self.client = client
        self.cache = cache
        self.settings = settings
    }

    static let endpoint = Endpoint.weatherKit

    public func fetch(_ city: CityConfig) async throws -> CityResponses {
        guard let client, let token else {
            guard let stored = try cache.any(city.slug, Self.endpoint) else { throw cache.nothingOffline(city.slug) }
            return CityResponses(city: city, responses: [Self.endpoint: stored])
        }
        if let cached = try cache.fresh(city, Self.endpoint) { return CityResponses(city: city, responses: [Self.endpoint: cached]) }
        guard let zone = city.timeZone else {
            throw IsobarError.zoneMissing(city, latitude: city.latitude, longitude: city.longitude, step: .fetch,
                                               path: cache.store.root.appendingPathComponent(city.slug).path, why: WeatherKitService.zoneReason)
        }
        let response: HTTPResponse
        do {
            response = try await client.get(requests.request(for: city, zone: zone, token: try token.current()))
        } catch let failure as RequestFailure {
            throw WeatherKitFailure.error(failure, settings: settings)
        }
        do {
            // A body the build could not read never replaces a good one.
            _ = try WeatherKitDecoder(describe: { "\($0)" }).forecast(RawResponse(endpoint: Self.endpoint, body: response.body, fetchedAt: Date()), city: city)
        } catch let error as IsobarError {
            throw IsobarError(step: .fetch, message: "\(Self.endpoint.apiPath): malformed response: \(error.message)")
        }
        return CityResponses(city: city, responses: [Self.endpoint: try cache.save(response.body, city.slug, Self.endpoint)])
    }

    public func refreshCandidate(_ city: CityConfig) -> RefreshPlan.Candidate? {
        guard client != nil else { return nil }
        let fetchedAt = cache.fetchTimes(city.slug)[Self.endpoint]
        let due = fetchedAt.map { !cache.isFresh($0, for: city) } ?? true
        return RefreshPlan.Candidate(slug: city.slug, fetchedAt: fetchedAt, calls: due ? 1 : 0)
    }

    public func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> CityResponses? {
        guard let stored = try cache.any(city.slug, Self.endpoint), cache.now().timeIntervalSince(stored.fetchedAt) <= maxAge else { return nil }
        return CityResponses(city: city, responses: [Self.endpoint: stored])
    }
}

/// WeatherKit's failures in words. The token is never in them: it is a credential for an
/// hour, and the key it was signed with is the site owner's.
enum WeatherKitFailure {
    static func error(_ failure: RequestFailure, settings: WeatherKitSettings) -> IsobarError {
        let what = "Apple WeatherKit"
        let tries = failure.afterAttempts
        switch failure.cause {
        case .transport(let transport):
            return IsobarError(step: .fetch, message: "\(what): service unreachable\(tries): \(transport.summary)",
                               hint: "check the network and `weatherkit.base_url`; the next run will try again")
        case .status(let response):
            let detail = reason(response.body).map { ": \($0)" } ?? ""
            switch response.status {
            case 401, 403:
                let ids = "key_id \(settings.keyID ?? "?"), team_id \(settings.teamID ?? "?"), service_id \(settings.serviceID ?? "?")"
                return IsobarError(
                    step: .fetch,
                    message: "\(what) refused the token (HTTP \(response.status)\(detail)): it does not accept the key or the ids it was made with (\(ids))",
                    hint: "check the `weatherkit:` ids in the config against developer.apple.com (Certificates, Identifiers & Profiles: the key's id and that WeatherKit is enabled for it, your team id, the Services ID), and that the private key is that key's .p8")
            case 429:
                return IsobarError(step: .fetch, message: "\(what): request quota exceeded\(tries) (HTTP 429\(detail))",
                                   hint: "lower openweather.requests_per_minute (it limits every provider), or set weatherkit.monthly_limit below your plan's calls; the next run will try again")
            case 500...599:
                return IsobarError(step: .fetch, message: "\(what): service unavailable\(tries) (HTTP \(response.status)\(detail))",
                                   hint: "the next run will try again")
            default:
                return IsobarError(step: .fetch, message: "\(what) refused the request (HTTP \(response.status)\(detail))",
                                   hint: "check `weatherkit.base_url`, the city's `lat:`/`lon:`, `timezone:` and `country:`, and the site's `language:`")
            }
        }
    }

    /// Apple's error bodies are JSON with a `reason` (`{"reason": "NOT_ENABLED"}`) or short
    /// text: a line of it, printable characters only, at most 200.
    static func reason(_ body: Data) -> String? {
        struct Reason: Decodable { var reason: String? }
        let text = (try? JSONDecoder().decode(Reason.self, from: body))?.reason ?? String(decoding: body.prefix(200), as: UTF8.self)
        let line = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200)).trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? nil : line
    }
}
