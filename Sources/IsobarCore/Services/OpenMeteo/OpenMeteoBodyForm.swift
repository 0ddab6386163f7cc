import Foundation

/// Open-Meteo answers in several forms: Isobar asks for Unix times and its units, but the
/// API's default form has ISO 8601 local times (`"2024-06-01T14:00"`, dates for daily
/// values), km/h, and older bodies carry `current_weather` and variable names without the
/// underscore (`weathercode`, `windspeed_10m`). Snapshots and caches made by other tools
/// are in those forms. This brings any of them into the one form `OpenMeteoForecastBody`
/// reads, with each value converted from the unit its `*_units` block declares into the
/// unit Isobar would have asked for; the plausibility ranges then apply as to its own
/// bodies. A body already in Isobar's form passes through unchanged.
struct OpenMeteoBodyForm {
    let units: Units

    /// Names before the API's 2023 renaming, by their current name.
    static let renamed: [String: String] = [
        "weathercode": "weather_code", "relativehumidity_2m": "relative_humidity_2m", "dewpoint_2m": "dew_point_2m",
        "cloudcover": "cloud_cover", "windspeed_10m": "wind_speed_10m", "winddirection_10m": "wind_direction_10m",
        "windgusts_10m": "wind_gusts_10m", "windspeed_10m_max": "wind_speed_10m_max", "windgusts_10m_max": "wind_gusts_10m_max",
        "winddirection_10m_dominant": "wind_direction_10m_dominant",
    ]

    /// The legacy `current_weather` block's names.
    static let currentWeather: [String: String] = [
        "temperature": "temperature_2m", "windspeed": "wind_speed_10m", "winddirection": "wind_direction_10m",
        "weathercode": "weather_code",
    ]

    /// Blocks whose members are values (or series) with a unit in `<block>_units`.
    static let blocks = ["current", "hourly", "daily", "minutely_15"]

    func canonical(_ document: JSONValue) throws(DecodingError) -> JSONValue {
        guard case .object(var top) = document else { return document }
        // Without either, "now" is the nearest hour (OpenMeteoDecoder).
        if top.member("current") == nil, let legacy = top.member("current_weather") {
            top.append(JSONMember(key: "current", value: Self.renaming(legacy, Self.currentWeather)))
            if let units = top.member("current_weather_units") {
                top.append(JSONMember(key: "current_units", value: Self.renaming(units, Self.currentWeather)))
            }
        }
        let clock = LocalClock(top)
        // ISO times mean the body was not asked for by Isobar (which asks for Unix times
        // and its units): a unit it does not declare is then the API's default.
        let defaultForm = Self.blocks.contains { top.member($0)?.member("time").map(Self.holdsText) ?? false }
        for index in top.indices where Self.blocks.contains(top[index].key) {
            let block = top[index].key
            let declared = top.member(block + "_units").map { Self.renaming($0, Self.renamed) }
            let values = Self.renaming(top[index].value, Self.renamed)
            top[index].value = try JSONFields.nested(block) { () throws(DecodingError) in
                try convert(values, declared: declared, defaultForm: defaultForm, clock: clock)
            }
        }
        return .object(top)
    }

    /// Open-Meteo's units when a request names none: °C, km/h, mm (snowfall in cm).
    static func apiDefaultUnit(_ variable: String) -> String? {
        if variable.hasPrefix("temperature") || variable.hasPrefix("apparent_temperature") || variable.hasPrefix("dew_point") { return "°C" }
        if variable.hasPrefix("wind_speed") || variable.hasPrefix("wind_gusts") { return "km/h" }
        if variable.hasPrefix("snowfall") { return "cm" }
        if ["precipitation", "rain", "showers"].contains(where: variable.hasPrefix), !variable.hasPrefix("precipitation_probability") { return "mm" }
        return nil
    }

    private static func holdsText(_ value: JSONValue) -> Bool {
        switch value {
        case .string: return true
        case .array(let elements): return elements.first.map(holdsText) ?? false
        default: return false
        }
    }

    /// Times to Unix seconds, values to the units Isobar asks for.
    private func convert(_ block: JSONValue, declared: JSONValue?, defaultForm: Bool, clock: LocalClock) throws(DecodingError) -> JSONValue {
        guard case .object(var members) = block else { return block }
        for index in members.indices {
            let name = members[index].key, original = members[index].value
            if ["time", "sunrise", "sunset"].contains(name) {
                members[index].value = try JSONFields.nested(name) { () throws(DecodingError) in
                    try Self.map(original) { value throws(DecodingError) in try clock.seconds(value) }
                }
            } else if let unit = declared?.member(name).flatMap(\.text) ?? (defaultForm ? Self.apiDefaultUnit(name) : nil),
                      let conversion = UnitChange(variable: name, from: unit, units: units) {
                members[index].value = try Self.map(original) { value throws(DecodingError) in
                    if case .number(let number, _) = value { return .number(conversion.apply(number), exact: nil) }
                    return value
                }
            }
        }
        return .object(members)
    }

    /// Applies `change` to a value or to each element of a series.
    private static func map(_ value: JSONValue, _ change: (JSONValue) throws(DecodingError) -> JSONValue) throws(DecodingError) -> JSONValue {
        guard case .array(let elements) = value else { return try change(value) }
        var result: [JSONValue] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try JSONFields.nested(index) { () throws(DecodingError) in try change(element) })
        }
        return .array(result)
    }

    private static func renaming(_ value: JSONValue, _ names: [String: String]) -> JSONValue {
        guard case .object(let members) = value else { return value }
        let present = Set(members.map(\.key))
        return .object(members.map { member in
            // A body with both spellings keeps the current one.
            guard let new = names[member.key], !present.contains(new) else { return member }
            return JSONMember(key: new, value: member.value)
        })
    }
}

/// Reads Open-Meteo's ISO 8601 local times (`2024-06-01T14:00`, `2024-06-01`) in the
/// body's time zone; Unix seconds pass through.
private struct LocalClock {
    var calendar = Calendar(identifier: .gregorian)
    var fixedOffset: Int

    init(_ top: [JSONMember]) {
        fixedOffset = top.member("utc_offset_seconds").flatMap(\.number).flatMap { Int(exactly: $0) } ?? 0
        // The named zone gets wall times right on both sides of a DST change; the offset
        // (the one at the time of the request) is the fallback.
        if let name = top.member("timezone").flatMap(\.text), name != "GMT", let zone = TimeZone(identifier: name) {
            calendar.timeZone = zone
        } else {
            calendar.timeZone = TimeZone(secondsFromGMT: fixedOffset) ?? TimeZone(identifier: "UTC")!
        }
    }

    func seconds(_ value: JSONValue) throws(DecodingError) -> JSONValue {
        guard case .string(let text) = value else { return value }
        guard let date = date(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [],
                debugDescription: "\"\(QuotedInput.shortened(text, longestWord: 40))\" is not a time in Unix seconds or ISO 8601 (2024-06-01T14:00)"))
        }
        return .number(date.timeIntervalSince1970, exact: nil)
    }

    private func date(_ text: String) -> Date? {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/) else { return nil }
        var parts = DateComponents()
        parts.year = Int(match.1)
        parts.month = Int(match.2)
        parts.day = Int(match.3)
        parts.hour = match.4.flatMap { Int($0) } ?? 0
        parts.minute = match.5.flatMap { Int($0) } ?? 0
        parts.second = match.6.flatMap { Int($0) } ?? 0
        guard parts.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: parts)
    }
}

/// A value's change from the unit its body declares to the unit Isobar asks Open-Meteo
/// for (`OpenMeteoRequests`): °C or °F, m/s or mph, mm or inches of rain, cm or inches of
/// snow; visibility in metres whatever the request's units (a body may declare feet).
/// Nil when nothing changes or the unit is not one of these.
private struct UnitChange {
    let apply: (Double) -> Double

    // Each unit's size in the SI unit of its kind (m/s, mm, m), by Open-Meteo's spellings.
    static let speeds: [String: Double] = ["m/s": 1, "km/h": 1 / 3.6, "mph": 0.44704, "mp/h": 0.44704, "kn": 0.514444, "knots": 0.514444]
    static let lengths: [String: Double] = ["mm": 1, "cm": 10, "inch": 25.4, "in": 25.4]
    static let distances: [String: Double] = ["m": 1, "ft": 0.3048]

    init?(variable: String, from unit: String, units: Units) {
        let imperial = units == .imperial
        if variable.hasPrefix("visibility") {
            guard unit != "m", let size = Self.distances[unit] else { return nil }
            apply = { (value: Double) -> Double in value * size }
        } else if unit == "°C" || unit == "°F" {
            let target = imperial ? "°F" : "°C"
            guard unit != target else { return nil }
            if imperial {
                let fahrenheit = UnitFormatter(units: .imperial)
                apply = { (celsius: Double) -> Double in fahrenheit.temperatureValue(celsius) }
            } else {
                let conversion = UnitConversion(units: .imperial)
                apply = { (fahrenheit: Double) -> Double in conversion.celsius(fahrenheit) }
            }
        } else if let size = Self.speeds[unit] {
            let target = imperial ? "mph" : "m/s"
            guard unit != target, let targetSize = Self.speeds[target] else { return nil }
            apply = { (value: Double) -> Double in value * size / targetSize }
        } else if let size = Self.lengths[unit] {
            let target = variable.hasPrefix("snowfall") ? (imperial ? "inch" : "cm") : (imperial ? "inch" : "mm")
            guard unit != target, let targetSize = Self.lengths[target] else { return nil }
            apply = { (value: Double) -> Double in value * size / targetSize }
        } else {
            return nil
        }
    }
}
