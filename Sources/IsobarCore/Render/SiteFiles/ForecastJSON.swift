import Foundation

/// `<slug>/forecast.json`: the normalized forecast, for scripts. Dates are ISO 8601 in
/// UTC and values are in the model's canonical units (°C, m/s, m, hPa, mm, 0…1). The
/// keys are those of `Forecast`'s `Codable` form, so `JSONDecoder` reads it back (a test
/// checks that); it is written by hand because `JSONEncoder` cost a tenth of build time.
public enum ForecastJSON {
    public static let unitsNote = "canonical: °C, m/s, m, hPa, mm, probabilities 0…1"

    /// `history`, when the build has one, is the summary the page's history sections show
    /// (keys of `HistorySummary`'s `Codable` form, like the forecast's).
    public static func data(_ forecast: Forecast, slug: String, history: HistorySummary? = nil) throws -> Data {
        let json = JSONText()
        json.object {
            json.field("slug") { json.string(slug) }
            json.field("units") { json.string(unitsNote) }
            json.field("forecast") { json.forecast(forecast) }
            if let history { json.field("history") { json.history(history) } }
        }
        json.bytes.append(0x0A)
        return Data(json.bytes)
    }
}

/// A small JSON writer: keys in a fixed order, one entry per line at the top levels.
///
/// One instance writes one document on one task, never shared: its two stored properties
/// skip the runtime's exclusivity bookkeeping, which was a twentieth of a build when
/// every byte appended to a class property paid for it.
final class JSONText {
    /// UTF-8 built up byte by byte: far cheaper than appending to a `String`.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Whether the container being written already has an entry (saved and restored
    /// around nested containers, on the call stack rather than in an array).
    @exclusivity(unchecked) private var needsComma = false

    init() {
        bytes.reserveCapacity(48 * 1024)
    }

    private func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private func raw(_ byte: UInt8) {
        bytes.append(byte)
    }

    func object(_ body: () -> Void) {
        raw(UInt8(ascii: "{"))
        let outer = needsComma
        needsComma = false
        body()
        needsComma = outer
        raw(UInt8(ascii: "}"))
    }

    func array<T>(_ items: [T], _ element: (T) -> Void) {
        raw(UInt8(ascii: "["))
        let outer = needsComma
        needsComma = false
        for item in items {
            separate()
            element(item)
        }
        needsComma = outer
        raw(UInt8(ascii: "]"))
    }

    private func separate() {
        if needsComma { raw(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// A member whose key is written in the source: copied as it is, without the scan
    /// for characters to escape (the keys are plain ASCII names; checked in debug builds).
    func field(_ key: StaticString, _ value: () -> Void) {
        separate()
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        assert(key.hasPointerRepresentation && !name.contains(where: Self.needsEscaping), "\(key) needs escaping")
        raw(UInt8(ascii: "\""))
        bytes.append(contentsOf: name)
        raw(UInt8(ascii: "\""))
        raw(UInt8(ascii: ":"))
        value()
    }

    /// A member whose key is data (a slug, a path, a pollutant's name): escaped.
    func field(named key: String, _ value: () -> Void) {
        separate()
        string(key)
        raw(UInt8(ascii: ":"))
        value()
    }

    /// Optional fields are left out when absent, as `JSONEncoder` does.
    func field(_ key: StaticString, _ value: Double?) {
        guard let value else { return }
        field(key) { number(value) }
    }

    func field(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        field(key) { string(value) }
    }

    func field(_ key: StaticString, _ value: Date?) {
        guard let value else { return }
        field(key) { date(value) }
    }

    func integer(_ value: Int64) {
        FixedPoint.append(units: value, digits: 0, to: &bytes)
    }

    func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    func number(_ value: Double) {
        guard value.isFinite else { raw("null"); return }
        let value = Self.tidy(value)
        if value == value.rounded() && abs(value) < 1e15 {
            integer(Int64(value))
        } else if let hundredths = Self.exactHundredths(value) {
            FixedPoint.append(units: hundredths, digits: 2, trimmingZeros: true, to: &bytes)
        } else {
            raw(String(value))
        }
    }

    /// `value` to six decimals at most: finer than any instrument reads, and it drops the
    /// noise unit conversions leave (°F → °C, mph → m/s give 12.240000000000009 for 12.24),
    /// which the shortest round-trip form would otherwise write out whole.
    static func tidy(_ value: Double) -> Double {
        abs(value) < 1e9 ? (value * 1e6).rounded() / 1e6 : value
    }

    /// `value` × 100 as an integer, when `value` is that integer ÷ 100 exactly as a Double
    /// computes it. Most forecast values have two decimals; for them the digits with the
    /// zeros trimmed are the shortest text that reads back as `value`, which is what
    /// `String(value)` prints — without its general algorithm and a string per number.
    static func exactHundredths(_ value: Double) -> Int64? {
        guard abs(value) < 1e13 else { return nil }
        let scaled = (value * 100).rounded()
        guard scaled / 100 == value else { return nil }
        return Int64(scaled)
    }

    /// `"2026-11-22T11:50:00Z"`, as `AtomDate.string` writes it, into a buffer on the stack
    /// and appended at once: a forecast has some seventy dates, and building a string for
    /// each, or appending digit by digit, showed in profiles.
    func date(_ value: Date) {
        let f = LocalTimeFormatter.fields(value, offset: 0)
        let fourDigitYear = (0...9999).contains(f.year)
        if !fourDigitYear { raw("\"\(f.year)") }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 22) { buffer in
            var at = 0
            func put(_ byte: UInt8) {
                buffer[at] = byte
                at += 1
            }
            func put(_ value: Int, width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            }
            if fourDigitYear {
                put(UInt8(ascii: "\""))
                put(f.year, width: 4)
            }
            put(UInt8(ascii: "-")); put(f.month, width: 2); put(UInt8(ascii: "-")); put(f.day, width: 2)
            put(UInt8(ascii: "T")); put(f.hour, width: 2); put(UInt8(ascii: ":")); put(f.minute, width: 2)
            put(UInt8(ascii: ":")); put(f.second, width: 2); put(UInt8(ascii: "Z")); put(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<at]))
        }
    }

    /// Bytes `string` must escape; U+2028/U+2029 start with 0xE2.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: "/") || byte == 0xE2
    }

    func string(_ value: String) {
        // Most strings (times, words) need no escaping: copied in one step. Native strings
        // are contiguous UTF-8, so the scan runs over a buffer rather than an iterator.
        let plain = value.utf8.withContiguousStorageIfAvailable { !$0.contains(where: Self.needsEscaping) }
            ?? !value.utf8.contains(where: Self.needsEscaping)
        if plain {
            raw(UInt8(ascii: "\""))
            bytes.append(contentsOf: value.utf8)
            raw(UInt8(ascii: "\""))
            return
        }
        raw(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            // "<" and "/" escaped too, so the file is safe to inline into a page's <script>.
            case UInt8(ascii: "<"): raw("\\u003c")
            case UInt8(ascii: "/"): raw("\\/")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                raw("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(byte)
            }
        }
        raw(UInt8(ascii: "\""))
        // U+2028/U+2029 end a line in JavaScript: escaped in a second pass when present.
        if value.unicodeScalars.contains(where: { $0.value == 0x2028 || $0.value == 0x2029 }) {
            fixLineSeparators()
        }
    }

    private func fixLineSeparators() {
        var fixed: [UInt8] = []
        fixed.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            if index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                fixed.append(contentsOf: (bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 3
            } else {
                fixed.append(bytes[index])
                index += 1
            }
        }
        bytes = fixed
    }

    func field(_ key: StaticString, _ value: Condition?) {
        guard let value else { return }
        field(key) { condition(value) }
    }

    func condition(_ c: Condition) {
        object {
            field("code") { number(Double(c.code)) }
            field("description", c.description)
            field("icon", c.icon)
            field("main", c.main)
        }
    }

    /// One member of a row object: a number from the row's field table, or one of the
    /// members that are not numbers, written here.
    enum Member<Row> {
        /// A field's key and reader (only those: binding the whole field for every row
        /// retained and released its closures).
        case number(StaticString, ForecastField<Row>.Reader)
        /// Writes its member (key and value), or nothing when the row has no value.
        case other(StaticString, (JSONText, StaticString, Row) -> Void)

        var key: String {
            switch self {
            case .number(let key, _), .other(let key, _): key.description
            }
        }
    }

    /// A row's members in key order (as `JSONEncoder` sorts them): the numbers its field
    /// table declares, and `others`. Sorted once, not per row.
    static func layout<Row>(_ fields: [ForecastField<Row>], _ others: [(StaticString, (JSONText, StaticString, Row) -> Void)]) -> [Member<Row>] {
        (fields.map { .number($0.key, $0.get) } + others.map { .other($0.0, $0.1) }).sorted { $0.key < $1.key }
    }

    func members<Row>(_ row: Row, _ layout: [Member<Row>]) {
        // The numbers are read where the row lies (`ForecastField.Reader`).
        withUnsafePointer(to: row) { pointer in
            object {
                for member in layout {
                    switch member {
                    case .number(let key, let get): field(key, get(pointer))
                    case .other(let key, let write): write(self, key, row)
                    }
                }
            }
        }
    }

    nonisolated(unsafe) static let current = layout(CurrentConditions.fields, [
        ("conditions", { json, key, c in json.field(key) { json.array(c.conditions) { json.condition($0) } } }),
        ("sunrise", { json, key, c in json.field(key, c.sunrise) }),
        ("sunset", { json, key, c in json.field(key, c.sunset) }),
        ("time", { json, key, c in json.field(key, c.time) }),
    ])

    nonisolated(unsafe) static let hourly = layout(HourlyForecast.fields, [
        ("condition", { json, key, h in json.field(key, h.condition) }),
        ("stepHours", { json, key, h in json.field(key, Double(h.stepHours)) }),
        ("time", { json, key, h in json.field(key, h.time) }),
    ])

    nonisolated(unsafe) static let daily = layout(DailyForecast.fields, [
        ("condition", { json, key, d in json.field(key, d.condition) }),
        ("day", { json, key, d in json.field(key, d.day) }),
        ("moonrise", { json, key, d in json.field(key, d.moonrise) }),
        ("moonset", { json, key, d in json.field(key, d.moonset) }),
        ("summary", { json, key, d in json.field(key, d.summary) }),
        ("sunrise", { json, key, d in json.field(key, d.sunrise) }),
        ("sunset", { json, key, d in json.field(key, d.sunset) }),
        ("time", { json, key, d in json.field(key, d.time) }),
    ])

    func forecast(_ f: Forecast) {
        object {
            field("airQuality") {
                if let air = f.airQuality {
                    object {
                        field("components") {
                            object { for key in air.components.keys.sorted() { field(named: key) { number(air.components[key]!) } } }
                        }
                        field("index") { number(Double(air.index)) }
                        field("time", air.time)
                    }
                } else {
                    raw("null")
                }
            }
            field("alerts") {
                array(f.alerts) { a in
                    object {
                        field("area", a.area)
                        field("certainty", a.certainty)
                        field("description", a.description)
                        field("end", a.end)
                        field("event", a.event)
                        field("instruction", a.instruction)
                        field("sender", a.sender)
                        field("severity", a.severity?.rawValue)
                        field("source", a.source?.rawValue)
                        field("start", a.start)
                        field("tags") { array(a.tags) { string($0) } }
                        field("urgency", a.urgency)
                    }
                }
            }
            field("current") { members(f.current, Self.current) }
            field("daily") { array(f.daily) { members($0, Self.daily) } }
            field("hourly") { array(f.hourly) { members($0, Self.hourly) } }
            field("location") {
                let l = f.location
                object {
                    field("country", l.country)
                    field("latitude", l.latitude)
                    field("longitude", l.longitude)
                    field("name", l.name)
                    field("state", l.state)
                    field("timeZoneIdentifier", l.timeZoneIdentifier)
                    field("utcOffsetSeconds") { number(Double(l.utcOffsetSeconds)) }
                }
            }
            field("nowcast") {
                array(f.nowcast) { step in
                    object {
                        field("intensity", step.intensity)
                        field("minutes") { number(Double(step.minutes)) }
                        field("time", step.time)
                    }
                }
            }
            field("source") {
                object {
                    field("api", f.source.api)
                    field("fetchedAt", f.source.fetchedAt)
                }
            }
        }
    }
}
