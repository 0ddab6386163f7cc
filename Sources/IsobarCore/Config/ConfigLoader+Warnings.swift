import Foundation

/// `alerts:`, `meteoalarm:` and a city's `warning_area:` (README, "Weather warnings"); the
/// `nws:` block, which the NWS forecast provider shares, is `loadIdentifiedService`'s.
extension ConfigLoader {
    static let meteoAlarmKeys = ["base_url"]

    static func loadWarnings(_ top: YAMLMapping, into config: inout SiteConfig) throws {
        if let value = top["meteoalarm"] {
            let map = try value.mapping(allowed: meteoAlarmKeys)
            if let base = map["base_url"] { config.meteoAlarm.baseURL = try httpURL(base) }
        }
        guard let value = top["alerts"] else { return }
        config.alerts = try alerts(value)
        // Asked for by name: a site without a contact would be refused by the NWS (its terms
        // ask every client to identify itself), so say so now rather than on every page.
        if case .sources(let listed) = config.alerts, listed.contains(.nws), config.contact(for: .nws) == nil {
            throw value.error(
                "nws needs a contact: the National Weather Service asks every request's User-Agent to say who sends it",
                hint: "add `contact: you@example.org` (an e-mail or web address where the NWS can reach the site's owner) at the top level of \(config.file.lastPathComponent), or `nws: { contact: … }`")
        }
    }

    /// `auto`, `off`, or a list of sources.
    private static func alerts(_ value: YAMLValue) throws -> AlertsChoice {
        let names = WarningSourceKind.allCases.map(\.rawValue).joined(separator: ", ")
        let hint = "write `alerts: auto` (the national service for each city), `alerts: off`, or a list of sources: [\(names)]"
        if let items = try? value.sequence() {
            var kinds: [WarningSourceKind] = []
            for item in items {
                let kind = try item.oneOf(WarningSourceKind.self, what: "a warning source")
                guard !kinds.contains(kind) else { throw item.error("\(kind.rawValue) is listed twice", hint: "list each source once") }
                kinds.append(kind)
            }
            guard !kinds.isEmpty else { throw value.error("the list is empty", hint: hint) }
            return .sources(kinds)
        }
        switch try value.string() {
        case "auto": return .auto
        case "off": return .off
        case let other: throw value.error("\"\(other)\" is not auto, off or a list of warning sources", hint: hint)
        }
    }

    /// One code or a list of them, each a word of letters, digits, `-` and `_` (EMMA_ID `DE413`, NUTS `DE300`).
    static func warningAreaCodes(_ value: YAMLValue) throws -> [String] {
        let items = (try? value.sequence()) ?? [value]
        return try items.map { item in
            let code = try item.nonEmptyString()
            guard code.range(of: #"^[A-Za-z0-9_-]+$"#, options: .regularExpression) != nil else {
                throw item.error("\"\(code)\" is not a warning area code", hint: "a code from the warning's geocode, e.g. MeteoAlarm's EMMA_ID DE413")
            }
            return code
        }
    }
}
