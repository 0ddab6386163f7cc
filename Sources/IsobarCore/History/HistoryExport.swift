import Foundation

/// `isobar history export`: a city's observations in time order, one row (CSV) or object
/// (JSON) per data time, in the units they are stored in. Numbers are written as
/// `forecast.json` writes them (the same writer), so both formats show the same digits.
/// The value columns are the field table's (`CurrentConditions.fields`), in its order.
public enum HistoryExport {
    public enum Format: String, Sendable, CaseIterable {
        case csv, json
    }

    public static func data(_ format: Format, city: String, _ observations: [HistoryObservation]) -> Data {
        switch format {
        case .csv: return csv(observations)
        case .json: return json(city: city, observations)
        }
    }

    /// RFC 4180: a header line, CRLF line ends, a field holding a comma, a quote or a line
    /// end in quotes (its quotes doubled); an empty field for a value not recorded.
    public static func csv(_ observations: [HistoryObservation]) -> Data {
        let out = JSONText()
        let header = ["time"] + CurrentConditions.fields.map(\.column) + ["condition", "source"]
        out.bytes.append(contentsOf: header.joined(separator: ",").utf8)
        out.bytes.append(contentsOf: "\r\n".utf8)
        for observation in observations {
            out.bytes.append(contentsOf: AtomDate.string(observation.time).utf8)
            for column in CurrentConditions.fields {
                out.bytes.append(UInt8(ascii: ","))
                if let value = column.get(observation.values) { out.number(value) }
            }
            out.bytes.append(UInt8(ascii: ","))
            if let condition = observation.condition { out.integer(Int64(condition)) }
            out.bytes.append(UInt8(ascii: ","))
            out.bytes.append(contentsOf: csvField(observation.source).utf8)
            out.bytes.append(contentsOf: "\r\n".utf8)
        }
        return Data(out.bytes)
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `{"city": …, "units": {…}, "observations": [{…}, …]}`, one observation per line; a
    /// value not recorded is left out of its object, as in `forecast.json`.
    public static func json(city: String, _ observations: [HistoryObservation]) -> Data {
        let json = JSONText()
        json.object {
            json.field("city") { json.string(city) }
            json.field("units") {
                json.object {
                    json.field("time") { json.string("ISO 8601, UTC: the data time") }
                    for column in CurrentConditions.fields {
                        json.field(named: column.column) { json.string("\(column.measure.unit)") }
                    }
                    json.field("condition") { json.string("OpenWeather condition code (Open-Meteo's WMO codes mapped onto it)") }
                }
            }
            json.field("observations") {
                json.array(observations) { observation in
                    json.bytes.append(0x0A)
                    json.object {
                        json.field("time", observation.time)
                        for column in CurrentConditions.fields {
                            if let value = column.get(observation.values) { json.field(named: column.column) { json.number(value) } }
                        }
                        if let condition = observation.condition { json.field("condition") { json.integer(Int64(condition)) } }
                        json.field("source", observation.source)
                    }
                }
            }
        }
        json.bytes.append(0x0A)
        return Data(json.bytes)
    }
}
