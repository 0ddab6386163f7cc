/// An API response Isobar stores, named as its file in the cache and in snapshots
/// (`<dir>/<slug>/<endpoint>.json`). Each service declares its own endpoints in its folder
/// (`Services/<Name>/<Name>Service.swift`); `allCases` is every service's, in the
/// registry's order.
public struct Endpoint: RawRepresentable, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// The file's name without `.json`, and the endpoint's name in fingerprints.
    public let rawValue: String
    /// The API path, for requests and for messages (it holds no secret).
    public let apiPath: String
    /// The service that answers it, by its config name, for the report's requests per
    /// provider.
    public let service: String

    init(_ rawValue: String, path: String, service: String) {
        self.rawValue = rawValue
        self.apiPath = path
        self.service = service
    }

    public init?(rawValue: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    public static let allCases: [Endpoint] = ServiceRegistry.endpoints

    public var fileName: String { rawValue + ".json" }
    public var description: String { rawValue }

    // An endpoint is its name: two with one name are one file.
    public static func == (a: Endpoint, b: Endpoint) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let known = Endpoint(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no endpoint \(name)"))
        }
        self = known
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The forecast bodies a page can be built from on their own, every service's.
    public static let wholeForecasts: [Endpoint] = ServiceRegistry.forecasts.flatMap { $0.wholeForecasts }

    /// What a city's folder needs, for messages: "onecall.json, weather.json and
    /// forecast.json, open-meteo-forecast.json, … or weatherkit.json".
    public static let forecastFilesExpected: String = {
        let each = ServiceRegistry.forecasts.map { $0.forecastFiles }
        return each.dropLast().joined(separator: ", ") + (each.count > 1 ? ", or " : "") + (each.last ?? "")
    }()

    /// Answers kept for good once fetched (where a city is): not a refresh's requests.
    public static let keptForGood: [Endpoint] = ServiceRegistry.forecasts.flatMap { $0.keptForGood }
}
