import Foundation

/// `nws:` — the US National Weather Service's API (no key; its documentation asks for a
/// User-Agent that identifies the application and a contact). The rate limit,
/// concurrency and timeouts are the `openweather:` block's, which govern every request.
public struct NWSSettings: IdentifiedServiceSettings, ServiceBlock {
    public init() {}

    public var limits = CallLimits()
    /// Requests go to `<base_url>/points/…`, then to the URLs its answer names.
    public var baseURL = URL(string: "https://api.weather.gov")!
    /// Overrides the top-level `contact:` for NWS alone.
    public var contact: String?
}

extension SiteConfig {
    /// `nws:`
    public var nws: NWSSettings {
        get { services[NWSSettings.self] }
        set { services[NWSSettings.self] = newValue }
    }
}
