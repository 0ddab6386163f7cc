import Foundation

/// MeteoAlarm's `feeds-<country>` answer: `{"warnings": [{"alert": {…CAP…}, "uuid": …}]}`,
/// each `alert` a CAP 1.2 message as JSON — `info` one block per language, each with its
/// `area`s (`areaDesc`, `polygon`s, `geocode`s such as EMMA_ID) and `parameter`s
/// (`awareness_level` "2; yellow; Moderate", `awareness_type` "1; Wind").
struct MeteoAlarmFeed: Decodable {
    var warnings: [Entry]

    struct Entry: Decodable {
        var alert: Alert
    }

    struct Alert: Decodable {
        var identifier: String?
        /// Actual, Exercise, System, Test, Draft.
        var status: String?
        /// Alert, Update, Cancel, Ack, Error.
        var msgType: String?
        /// "sender,identifier,sent …" of the messages this one updates or cancels.
        var references: String?
        var info: OneOrMany<Info>?
    }

    struct Info: Decodable {
        var language: String?
        var event: String?
        var severity: String?
        var urgency: String?
        var certainty: String?
        var effective: String?
        var onset: String?
        var expires: String?
        var senderName: String?
        var headline: String?
        var description: String?
        var instruction: String?
        var parameter: OneOrMany<NamedValue>?
        var area: OneOrMany<Area>?
    }

    struct Area: Decodable {
        var areaDesc: String?
        var polygon: OneOrMany<String>?
        var geocode: OneOrMany<NamedValue>?
    }

    struct NamedValue: Decodable {
        var valueName: String?
        var value: String?
    }
}

/// CAP elements that may occur once or more: converters write one as a bare value and
/// several as a list.
struct OneOrMany<Element: Decodable>: Decodable {
    var items: [Element]

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let list = try? container.decode([Element].self) {
            items = list
        } else {
            items = [try container.decode(Element.self)]
        }
    }
}
