import Foundation

/// `met_norway:` — MET Norway's Locationforecast 2.0 (no key; its terms ask for an
/// identifying User-Agent instead). The rate limit, concurrency and timeouts are the
/// `openweather:` block's, which govern every request.
public struct MetNorwaySettings: IdentifiedServiceSettings, ServiceBlock {
    public init() {}

    public var limits = CallLimits()
    /// The product's folder; requests go to `<base_url>/complete`.
    public var baseURL = URL(string: "https://api.met.no/weatherapi/locationforecast/2.0")!
    /// Overrides the top-level `contact:` for MET Norway alone.
    public var contact: String?
}

extension SiteConfig {
    /// `met_norway:`
    public var metNorway: MetNorwaySettings {
        get { services[MetNorwaySettings.self] }
        set { services[MetNorwaySettings.self] = newValue }
    }
}
