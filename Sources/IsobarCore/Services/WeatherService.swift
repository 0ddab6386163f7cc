import Foundation

/// Everything the shared stages ask of one forecast service, answered in the service's own
/// folder (`Services/<Name>/<Name>Service.swift`) and listed once, in `ServiceRegistry`.
/// The stages ask through the registry and never name a service.
protocol WeatherService: Sendable {
    /// Its name in `provider:`.
    static var kind: ProviderKind { get }
    /// Its name for people: "MET Norway".
    static var name: String { get }
    /// Its block's key at the top of `isobar.yml`: `met_norway`.
    static var block: String { get }
    /// Reads its block (nil when the file has none) into the config's `services`.
    static func load(_ value: YAMLValue?, _ context: ServiceConfigContext, into config: inout SiteConfig) throws
    /// Every response it stores, in the order a city's bodies are fingerprinted.
    static var endpoints: [Endpoint] { get }
    /// The bodies a page can be built from (with what the decoder asks for beside them).
    static var wholeForecasts: [Endpoint] { get }
    /// Answers kept for good once fetched (where a city is, the climate of the past):
    /// not a refresh's requests.
    static var keptForGood: [Endpoint] { get }
    /// The files a city's folder needs, for messages: "open-meteo-forecast.json".
    static var forecastFiles: String { get }
    /// Who the data is from, as its terms ask to be named on every page built from it.
    static var attribution: LayoutModel.Attribution { get }
    /// Who asks every request to say who sends it, for a service that refuses (or may
    /// block) a client it cannot identify; nil for the others.
    static var contactRequiredBy: String? { get }
    /// The contact its requests carry (its block's `contact:`, else the top-level one),
    /// for a service whose terms ask who is calling; nil for the others.
    static func contact(_ config: SiteConfig) -> String?
    /// Why a city it forecasts needs `timezone:` (its answers name no zone, or its
    /// requests need one); nil when its answers name the zone.
    static var zoneRequiredBy: String? { get }
    /// What `isobar check` says of the config for this service, before any build: the
    /// errors a build would fail its cities with, and warnings. Asked of every service;
    /// one that no city uses says nothing.
    static func check(_ config: SiteConfig, now: Date) -> (errors: [IsobarError], warnings: [String])
    /// Its block's call limits and the block's name, for the budget's messages.
    static func limits(_ config: SiteConfig) -> (CallLimits, key: String)
    /// Requests one refresh of a city sends (geocoding, once per city, left out).
    static func callsPerRefresh(_ config: SiteConfig) -> Int
    /// A note on that count for `isobar check`, where it depends on what the key allows.
    static func callsNote(_ config: SiteConfig) -> String
    /// The service made once for the run: its provider, how its cities are located, its
    /// budget (nil offline).
    static func member(_ config: SiteConfig, _ setup: ProviderSetup.Context) throws -> ProviderSetup.Made
    /// The forecast from its bodies among what was fetched; nil when none of them is there.
    static func forecast(_ fetched: CityResponses, describe: @escaping @Sendable (String) -> String) throws -> Forecast?
}

extension WeatherService {
    static var contactRequiredBy: String? { nil }
    static func contact(_ config: SiteConfig) -> String? { nil }
    static func callsNote(_ config: SiteConfig) -> String { "" }
    static var zoneRequiredBy: String? { nil }
    static func check(_ config: SiteConfig, now: Date) -> (errors: [IsobarError], warnings: [String]) { ([], []) }

    /// Whether some city's chain has it.
    static func isUsed(_ config: SiteConfig) -> Bool { config.providersUsed.contains(kind) }
}

/// What a service's block is read with besides itself.
struct ServiceConfigContext {
    /// The config file's folder, which relative paths start from.
    var folder: URL
    /// Each `provider:` written, the site's and the cities', with the services it names.
    var chains: [(value: YAMLValue, kinds: [ProviderKind])]

    /// The first `provider:` naming the service, where a missing setting it needs is reported.
    func firstChain(naming kind: ProviderKind) -> YAMLValue? {
        chains.first { $0.kinds.contains(kind) }?.value
    }
}
