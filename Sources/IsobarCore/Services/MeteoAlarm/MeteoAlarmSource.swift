import Foundation

/// MeteoAlarm's public feed of a country's warnings: `GET <base_url>/api/v1/warnings/feeds-<country>`,
/// CAP as JSON (https://feeds.meteoalarm.org). One body holds the whole country, so it is
/// stored once per country, in `_meteoalarm/<country>/` beside the cities' folders (no slug
/// starts with `_`), and asked for once per run however many of its cities the site has.
struct MeteoAlarmSource: WarningSource {
    var baseURL: URL
    var kind: WarningSourceKind { .meteoalarm }

    static func folder(feed: String) -> String { "_meteoalarm/" + feed }

    func location(for city: CityConfig) -> (folder: String, endpoint: Endpoint) {
        (Self.folder(feed: MeteoAlarmCountries.feedName(of: city.country) ?? city.country.lowercased()), .meteoAlarmWarnings)
    }

    func request(for city: CityConfig) -> HTTPRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = base + Endpoint.meteoAlarmWarnings.apiPath + "/feeds-" + (MeteoAlarmCountries.feedName(of: city.country) ?? "")
        return HTTPRequest(url: components.url!, headers: ["Accept": "application/json"], endpoint: .meteoAlarmWarnings)
    }

    func validate(_ body: Data) throws {
        do {
            _ = try MeteoAlarmDecoder(language: "en").feed(body)
        } catch let error as IsobarError {
            throw IsobarError(step: .fetch, message: "MeteoAlarm \(Endpoint.meteoAlarmWarnings.apiPath): malformed response: \(error.message)")
        }
    }

    func failure(_ failure: RequestFailure) -> IsobarError {
        switch failure.cause {
        case .transport(let transport):
            return IsobarError(step: .fetch, message: "MeteoAlarm warnings: service unreachable\(failure.afterAttempts): \(transport.summary)",
                               hint: "check the network and `meteoalarm.base_url`; the next run will try again")
        case .status(let response):
            return IsobarError(step: .fetch, message: "MeteoAlarm warnings: HTTP \(response.status)\(failure.afterAttempts)",
                               hint: response.status == 404 ? "check `meteoalarm.base_url`" : "the next run will try again")
        }
    }
}

extension Endpoint {
    /// MeteoAlarm's `feeds-<country>`: every warning of one country (CAP as JSON), kept once
    /// per country in a folder of its own (`MeteoAlarmSource.folder`), not per city.
    public static let meteoAlarmWarnings = Endpoint("meteoalarm-warnings", path: "/api/v1/warnings", service: "meteoalarm")
}
