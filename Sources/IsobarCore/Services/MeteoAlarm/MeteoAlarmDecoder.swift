import Foundation

/// A country's MeteoAlarm feed (`meteoalarm-warnings.json`) as the `WeatherAlert`s of one
/// city: those with an area whose polygon contains the city's point, or whose geocode is
/// one of the city's `warning_area:` codes (for areas sent without a polygon). Only real
/// warnings count: `status` Actual, not cancelled or replaced by a later message in the
/// feed, and at awareness level yellow or above (green, level 1, means "no particular
/// awareness needed" and fills most of a quiet day's feed).
struct MeteoAlarmDecoder {
    /// The site's language: the `info` block in it is read, else English, else the first.
    var language: String

    func feed(_ body: Data) throws -> MeteoAlarmFeed {
        do {
            return try JSONDecoder().decode(MeteoAlarmFeed.self, from: body)
        } catch {
            throw IsobarError(step: .normalize, message: "not a MeteoAlarm feed: \(DecodingFailure.describe(error, data: body))")
        }
    }

    func alerts(_ body: Data, for city: CityConfig) throws -> [WeatherAlert] {
        let alerts = try feed(body).warnings.map(\.alert)
        let replaced = Set(alerts.filter { ["Update", "Cancel"].contains($0.msgType ?? "") }.flatMap { Self.referenced($0.references) })
        let codes = Set(city.warningAreas.map { $0.uppercased() })
        return alerts.compactMap { alert -> WeatherAlert? in
            guard (alert.status ?? "Actual") == "Actual", !["Cancel", "Ack", "Error"].contains(alert.msgType ?? ""),
                !replaced.contains(alert.identifier ?? ""),
                let info = pick(alert.info?.items ?? []),
                Self.level(info) != 1,
                let area = (info.area?.items ?? []).first(where: { Self.covers($0, city, codes: codes) }),
                // The headline names the level, the hazard and the area ("Yellow warning for
                // wind, Vestland"); `event` is often the hazard alone.
                let event = info.headline ?? info.event,
                let start = CAPTime.date(info.onset ?? info.effective), let end = CAPTime.date(info.expires)
            else { return nil }
            let kind = Self.parameter("awareness_type", in: info).flatMap(Self.name)
            return WeatherAlert(
                sender: info.senderName ?? "", event: event, start: start, end: end,
                description: info.description ?? info.headline ?? "", tags: kind.map { [$0] } ?? [],
                severity: info.severity.flatMap(AlertSeverity.init(cap:)), urgency: info.urgency, certainty: info.certainty,
                instruction: info.instruction, area: area.areaDesc, source: .meteoalarm)
        }
    }

    /// The `info` block in the site's language ("de" reads "de-DE"), else English, else the
    /// first. Norwegian Bokmål and Nynorsk (`nb`, `nn`) read MET Norway's `no`.
    func pick(_ infos: [MeteoAlarmFeed.Info]) -> MeteoAlarmFeed.Info? {
        func primary(_ code: String) -> String {
            let first = code.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
            return first == "nb" || first == "nn" ? "no" : first
        }
        let wanted = primary(language)
        return infos.first { primary($0.language ?? "") == wanted } ?? infos.first { primary($0.language ?? "") == "en" } ?? infos.first
    }

    static func covers(_ area: MeteoAlarmFeed.Area, _ city: CityConfig, codes: Set<String>) -> Bool {
        if let latitude = city.latitude, let longitude = city.longitude,
            (area.polygon?.items ?? []).contains(where: { CAPPolygon($0)?.contains(latitude: latitude, longitude: longitude) == true })
        {
            return true
        }
        return (area.geocode?.items ?? []).contains { codes.contains(($0.value ?? "").uppercased()) }
    }

    /// `awareness_level`'s number: "2; yellow; Moderate" is 2; nil when absent.
    static func level(_ info: MeteoAlarmFeed.Info) -> Int? {
        parameter("awareness_level", in: info).flatMap { Int($0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? "") }
    }

    static func parameter(_ name: String, in info: MeteoAlarmFeed.Info) -> String? {
        info.parameter?.items.first { $0.valueName == name }?.value
    }

    /// "1; Wind" → "Wind".
    static func name(_ value: String) -> String? {
        let parts = value.split(separator: ";", maxSplits: 1)
        let name = (parts.count == 2 ? parts[1] : parts.first ?? "").trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// The identifiers in CAP `references` ("sender,identifier,sent" separated by spaces).
    static func referenced(_ references: String?) -> [String] {
        (references ?? "").split(separator: " ").compactMap { entry in
            let parts = entry.split(separator: ",")
            return parts.count >= 2 ? String(parts[1]) : nil
        }
    }
}
