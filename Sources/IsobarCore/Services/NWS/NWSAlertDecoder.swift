import Foundation

/// The NWS's alerts (`nws-alerts.json`) as `WeatherAlert`s. The API already answers for the
/// city's point, so every feature applies to it; only real ones (`status: Actual`) that are
/// not cancellations are kept. An alert runs from its `onset` (else `effective`) to its
/// `ends` (else `expires`).
struct NWSAlertDecoder {
    func alerts(_ body: Data) throws -> [WeatherAlert] {
        let collection: NWSAlertCollection
        do {
            collection = try JSONDecoder().decode(NWSAlertCollection.self, from: body)
        } catch {
            throw IsobarError(step: .normalize, message: "not an NWS alerts collection: \(DecodingFailure.describe(error, data: body))")
        }
        return collection.features.compactMap { feature in
            let p = feature.properties
            guard (p.status ?? "Actual") == "Actual", !["Cancel", "Ack", "Error"].contains(p.messageType ?? ""),
                let event = p.event, let start = CAPTime.date(p.onset ?? p.effective), let end = CAPTime.date(p.ends ?? p.expires)
            else { return nil }
            return WeatherAlert(
                sender: p.senderName ?? "", event: event, start: start, end: end,
                description: [p.headline, p.description].compactMap { $0 }.joined(separator: "\n\n"), tags: [],
                severity: p.severity.flatMap(AlertSeverity.init(cap:)), urgency: p.urgency, certainty: p.certainty,
                instruction: p.instruction, area: p.areaDesc, source: .nws)
        }
    }
}
