import Foundation

/// `isobar history export`: a city's observations in time order, one row (CSV) or object
/// (JSON) per data time, in the units they are stored in. Numbers are written as
/// `forecast.json` writes them (the same writer), so both formats show the same digits.
public enum HistoryExport {
    public enum Format: String, Sendable, CaseIterable {
        case csv, json
    }

    /// Each column, its unit, and how it is read from an observation.
    struct Column: Sendable {
        var name: StaticString
        var unit: StaticString
        var value: @Sendable (HistoryObservation) -> Double?
    }

    static let columns: [Column] = [
        Column(name: "temperature", unit: "°C", value: { $0.temperature }),
        Column(name: "feels_like", unit: "°C", value: \.feelsLike),
        Column(name: "humidity", unit: "%", value: \.humidity),
        Column(name: "dew_point", unit: "°C", value: \.dewPoint),
        Column(name: "pressure", unit: "hPa", value: \.pressure),
        Column(name: "wind_speed", unit: "m/s", value: \.windSpeed),
        Column(name: "wind_gust", unit: "m/s", value: \.windGust),
        Column(name: "wind_direction", unit: "°", value: \.windDirection),
        Column(name: "cloud_cover", unit: "%", value: \.cloudCover),
        Column(name: "visibility", unit: "m", value: \.visibility),
        Column(name: "uv_index", unit: "UV index", value: \.uvIndex),
        Column(name: "rain_1h", unit: "mm", value: \.rainLastHour),
        Column(name: "snow_1h", unit: "mm", value: \.snowLastHour),
    ]

    /// What the time, condition and source columns hold, for the JSON's `units`.
    static let timeNote: StaticString = "ISO 8601, UTC: the data time"
    static let conditionNote: StaticString = "OpenWeather condition code (Open-Meteo's WMO codes mapped onto it)"

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
        let header = ["time"] + columns.map { "\($0.name)" } + ["condition", "source"]
        out.bytes.append(contentsOf: header.joined(separator: ",").utf8)
        out.bytes.append(contentsOf: "\r\n".utf8)
        for observation in observations {
            out.bytes.append(contentsOf: AtomDate.string(observation.time).utf8)
            for column in columns {
                out.bytes.append(UInt8(ascii: ","))
                if let value = column.value(observation) { out.number(value) }
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
                    json.field("time") { json.string("\(timeNote)") }
                    for column in columns {
                        json.field(column.name) { json.string("\(column.unit)") }
                    }
                    json.field("condition") { json.string("\(conditionNote)") }
                }
            }
            json.field("observations") {
                json.array(observations) { observation in
                    json.bytes.append(0x0A)
                    json.object {
                        json.field("time", observation.time)
                        for column in columns {
                            json.field(column.name, column.value(observation))
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
