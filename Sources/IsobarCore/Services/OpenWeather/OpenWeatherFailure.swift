import Foundation

/// Turns a failed OpenWeather request into a message a site owner can act on, one per
/// failure class: bad key, no One Call subscription, not found, quota, service down,
/// unreachable, malformed.
enum OpenWeatherFailure {
    /// The body OpenWeather sends with errors: `{"cod": 401, "message": "…"}`.
    struct ErrorBody: Decodable {
        let cod: FlexibleCode?
        let message: String?
    }

    static func apiMessage(_ body: Data) -> String? {
        guard let decoded = try? JSONDecoder().decode(ErrorBody.self, from: body), let message = decoded.message else {
            return nil
        }
        return String(message.prefix(300))
    }

    /// A 401 that means "this key may not use One Call 3.0", as opposed to a bad key.
    static func isMissingOneCallSubscription(_ response: HTTPResponse) -> Bool {
        guard response.status == 401 else { return false }
        let message = (apiMessage(response.body) ?? "").lowercased()
        if message.contains("invalid api key") { return false }
        return message.contains("one call") || message.contains("subscription") || message.isEmpty
    }

    static func isKeyRejected(_ response: HTTPResponse) -> Bool {
        response.status == 401 && !isMissingOneCallSubscription(response)
    }

    static func error(_ failure: RequestFailure, endpoint: Endpoint, city: CityConfig, keyVariable: String, redaction: Redaction) -> IsobarError {
        // The build prefixes the city's name; the path says which request failed.
        let what = OpenWeatherRequests.path(for: endpoint)
        let tries = failure.afterAttempts
        switch failure.cause {
        case .transport(let transport):
            switch transport {
            case .bodyTooLarge:
                return IsobarError(step: .fetch, message: "\(what): \(transport.summary)", hint: "check openweather.base_url")
            default:
                return IsobarError(
                    step: .fetch, message: redaction.apply("\(what): service unreachable\(tries): \(transport.summary)"),
                    hint: "check the network and openweather.base_url; the next run will try again")
            }
        case .status(let response):
            let detail = apiMessage(response.body).map { ": \(redaction.apply($0))" } ?? ""
            let status = "HTTP \(response.status)\(detail)"
            switch response.status {
            case 401 where isMissingOneCallSubscription(response):
                return IsobarError(
                    step: .fetch, message: "\(what): the API key has no One Call 3.0 subscription (\(status))",
                    hint: "set `openweather.api: auto` or `free` to use the free endpoints")
            case 401, 403:
                return IsobarError(
                    step: .fetch, message: "OpenWeather rejected the API key (\(status))",
                    hint: "check the key in the environment variable \(keyVariable); a new key can take a few hours to activate")
            case 404:
                return IsobarError(
                    step: .fetch, message: "\(what): not found (\(status))",
                    hint: "check the city's name, country and coordinates")
            case 429:
                return IsobarError(
                    step: .fetch, message: "\(what): request quota exceeded\(tries) (\(status))",
                    hint: "lower openweather.requests_per_minute or check the plan's limits; the next run will try again")
            case 500...599:
                return IsobarError(
                    step: .fetch, message: "\(what): OpenWeather service unavailable\(tries) (\(status))",
                    hint: "the next run will try again")
            default:
                return IsobarError(step: .fetch, message: "\(what): OpenWeather refused the request (\(status))")
            }
        }
    }

    static func isEmptyList(_ body: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: body) as? [Any])?.isEmpty == true
    }

    /// A 2xx answer that is not JSON (a proxy's HTML page, a truncated body) is not cached.
    static func malformed(_ body: Data, endpoint: Endpoint, city: CityConfig) -> IsobarError? {
        let what = OpenWeatherRequests.path(for: endpoint)
        if body.isEmpty { return IsobarError(step: .fetch, message: "\(what): malformed response: the body is empty") }
        guard let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            let kind = DecodingFailure.looksLikeHTML(body) ? "an HTML page, not JSON" : "not valid JSON (truncated?)"
            return IsobarError(step: .fetch, message: "\(what): malformed response: \(kind)")
        }
        let expectsList = endpoint == .geocode
        if expectsList ? !(value is [Any]) : !(value is [String: Any]) {
            return IsobarError(step: .fetch, message: "\(what): malformed response: unexpected JSON shape")
        }
        return nil
    }
}
