import Foundation

/// `weatherkit:` — Apple's WeatherKit REST API. Every request carries a token signed with
/// the site owner's WeatherKit key (`WeatherKitToken`): the ids that name the key, the
/// team and the service, and where the key is read from. The key itself never goes in the
/// config. The rate limit, concurrency and timeouts are the `openweather:` block's, which
/// govern every request.
public struct WeatherKitSettings: ServiceBlock {
    public init() {}

    /// Where the private key comes from: a `.p8` file as Apple's developer site hands it
    /// out, or an environment variable holding the same PEM text.
    public enum KeySource: Sendable, Equatable {
        case file(URL)
        case environment(String)
    }

    /// 500,000 calls a month come with a developer membership; more are billed.
    public var limits = CallLimits()
    public var baseURL = URL(string: "https://weatherkit.apple.com")!
    /// The Apple Developer team id (the token's `iss`).
    public var teamID: String?
    /// The Services ID registered for WeatherKit, e.g. `com.example.weather` (`sub`).
    public var serviceID: String?
    /// The key's id (`kid`), shown beside it on the developer site.
    public var keyID: String?
    public var key: KeySource?
}

extension ConfigLoader {
    static let weatherKitKeys = ["base_url", "team_id", "service_id", "key_id", "private_key_file", "private_key_env",
                                 "daily_limit", "monthly_limit"]

    /// `weatherkit:`. When the site's provider is WeatherKit, each id and one source of the
    /// key must be there (`required`): a missing one is named, with where to find it.
    static func loadWeatherKit(_ value: YAMLValue?, required: YAMLValue?, folder: URL) throws -> WeatherKitSettings {
        var settings = WeatherKitSettings()
        let map = try value?.mapping(allowed: weatherKitKeys)
        if let map {
            if let base = map["base_url"] { settings.baseURL = try httpURL(base) }
            settings.teamID = try map["team_id"].map { try identifier($0, example: "ABCDE12345") }
            settings.serviceID = try map["service_id"].map { try identifier($0, example: "com.example.weather") }
            settings.keyID = try map["key_id"].map { try identifier($0, example: "ABC123DEFG") }
            if let file = map["private_key_file"], let variable = map["private_key_env"] {
                throw variable.error("give the key once: `private_key_file` (\(try file.nonEmptyString())) is set too",
                                     hint: "keep one of private_key_file and private_key_env")
            }
            if let file = map["private_key_file"] {
                settings.key = .file(URL(fileURLWithPath: try file.nonEmptyString(), relativeTo: folder).standardizedFileURL)
            }
            if let variable = map["private_key_env"] {
                settings.key = .environment(try variableName(variable, example: "WEATHERKIT_PRIVATE_KEY"))
            }
            settings.limits = try limits(map)
        }
        guard let required else { return settings }
        let file = URL(fileURLWithPath: required.file).lastPathComponent
        let missing: [(key: String, hint: String)] = [
            settings.teamID == nil ? ("team_id", "your Apple Developer team id (Membership details), e.g. team_id: ABCDE12345") : nil,
            settings.serviceID == nil ? ("service_id", "the Services ID you registered for WeatherKit, e.g. service_id: com.example.weather") : nil,
            settings.keyID == nil ? ("key_id", "the id of your WeatherKit key (Certificates, Identifiers & Profiles → Keys), e.g. key_id: ABC123DEFG") : nil,
            settings.key == nil ? ("private_key_file", "the .p8 file Apple gave you for the key, e.g. private_key_file: AuthKey_ABC123DEFG.p8 (or private_key_env: WEATHERKIT_PRIVATE_KEY, a variable holding its text)") : nil,
        ].compactMap { $0 }
        if let first = missing.first {
            let names = missing.map { "weatherkit.\($0.key)" }.joined(separator: ", ")
            throw (map?.owner ?? required).error(
                "provider: weatherkit needs \(names) in \(file)",
                hint: "add \(missing.count == 1 ? "it" : "them") under `weatherkit:` in \(file); \(first.key): \(first.hint) (README, \"Forecasts from Apple WeatherKit\")")
        }
        return settings
    }

    /// An id as Apple's developer site shows it: one word of letters, digits, dots and
    /// hyphens (it goes into the token's header and claims as written).
    private static func identifier(_ value: YAMLValue, example: String) throws -> String {
        let text = try value.nonEmptyString()
        guard text.range(of: #"^[A-Za-z0-9._-]+$"#, options: .regularExpression) != nil else {
            throw value.error("\"\(text)\" is not an id as Apple's developer site shows it", hint: "e.g. \(example)")
        }
        return text
    }
}

extension SiteConfig {
    /// `weatherkit:`
    public var weatherKit: WeatherKitSettings {
        get { services[WeatherKitSettings.self] }
        set { services[WeatherKitSettings.self] = newValue }
    }
}
