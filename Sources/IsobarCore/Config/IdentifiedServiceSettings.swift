import Foundation

/// A keyless service's block whose requests say who sends them (`met_norway:`, `nws:`):
/// read by one loader, with the same keys.
public protocol IdentifiedServiceSettings: Sendable, Equatable {
    var limits: CallLimits { get set }
    var baseURL: URL { get set }
    var contact: String? { get set }
}

extension ConfigLoader {
    /// The keys of a keyless service's block whose requests carry a contact (`met_norway:`, `nws:`).
    static let identifiedServiceKeys = ["base_url", "contact", "daily_limit", "monthly_limit"]

    static func loadIdentifiedService<Settings: IdentifiedServiceSettings>(_ value: YAMLValue?, _ defaults: Settings) throws -> Settings {
        var settings = defaults
        guard let value else { return settings }
        let map = try value.mapping(allowed: identifiedServiceKeys)
        if let base = map["base_url"] { settings.baseURL = try httpURL(base) }
        settings.contact = try map["contact"].map(contact)
        settings.limits = try limits(map)
        return settings
    }
}
