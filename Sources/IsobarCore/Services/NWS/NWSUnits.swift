import Foundation

/// The NWS API names each value's unit (`wmoUnit:degC`, `wmoUnit:km_h-1`, `wmoUnit:mm`:
/// WMO's code table of units, https://codes.wmo.int/common/unit), and NWS's own offices
/// send some in others' than the rest: every value is converted by its code into the
/// model's canonical unit (`Measure`), never assumed, and then checked against that
/// measure's plausible range, as the other providers' values are in theirs. A code not
/// known here is an error naming it, not a guess.
enum NWSUnits {
    /// A value that cannot stand: an unknown unit or an implausible number, with its path.
    struct Refusal: Error {
        var path: String
        var detail: String
    }

    /// Into the measure's canonical unit, by unit code without its `wmoUnit:` / `unit:`
    /// prefix. Written as the definitions read ((°F − 32) × 5/9), so that whole numbers
    /// stay whole where they can (41 °F is 5 °C, not 5.000000000000001).
    private static let conversions: [Measure: [String: @Sendable (Double) -> Double]] = [
        .temperature: ["degC": { $0 }, "degF": { ($0 - 32) * 5 / 9 }, "K": { $0 - 273.15 }],
        .speed: ["m_s-1": { $0 }, "km_h-1": { $0 / 3.6 }, "mi_h-1": { $0 * 0.44704 }, "kt": { $0 * 1852 / 3600 }],
        .percent: ["percent": { $0 }],
        .precipitation: ["mm": { $0 }, "cm": { $0 * 10 }, "m": { $0 * 1000 }, "in": { $0 * 25.4 }],
        .distance: ["m": { $0 }, "km": { $0 * 1000 }, "mi": { $0 * 1609.344 }, "ft": { $0 * 0.3048 }],
        .direction: ["degree_(angle)": { $0 }],
    ]

    /// What each measure is called in a refusal, with its canonical unit.
    private static let names: [Measure: String] = [
        .temperature: "temperature", .speed: "wind speed", .percent: "percentage", .precipitation: "precipitation",
        .distance: "distance", .direction: "direction", .probability: "probability",
    ]

    static func code(_ unitCode: String) -> String {
        unitCode.split(separator: ":", maxSplits: 1).last.map(String.init) ?? unitCode
    }

    /// `value` in `unitCode`, in the measure's canonical unit, checked.
    static func convert(_ value: Double, unitCode: String?, to measure: Measure, path: String) throws(Refusal) -> Double {
        guard let unitCode, let conversion = conversions[measure]?[code(unitCode)] else {
            throw Refusal(path: path, detail: "unit \"\(String((unitCode ?? "none").prefix(40)))\" is not one Isobar knows for a \(names[measure] ?? "value")")
        }
        return try checked(conversion(value), measure, path: path)
    }

    /// A value already in the canonical unit, checked against the measure's range.
    static func checked(_ value: Double, _ measure: Measure, path: String) throws(Refusal) -> Double {
        let range = PlausibleRange(names[measure] ?? "value", measure.range, "\(measure.unit)")
        guard range.contains(value) else {
            throw Refusal(path: path, detail: "\(PlausibleRange.number(value)) is not a plausible \(range.quantity) (expected \(range.expected))")
        }
        return value
    }

    static func quantity(_ quantity: NWSQuantity?, _ measure: Measure, path: String) throws(Refusal) -> Double? {
        guard let quantity, let value = quantity.value ?? quantity.maxValue else { return nil }
        return try convert(value, unitCode: quantity.unitCode, to: measure, path: path)
    }

    /// A probability (the API's percent) as 0…1.
    static func probability(_ quantity: NWSQuantity?, path: String) throws(Refusal) -> Double? {
        try self.quantity(quantity, .percent, path: path).map { $0 / 100 }
    }

    /// A period's temperature: a number in its `temperatureUnit`, or a quantity.
    static func temperature(_ temperature: NWSTemperature?, unit: String?, path: String) throws(Refusal) -> Double? {
        switch temperature {
        case nil: return nil
        case .quantity(let quantity): return try self.quantity(quantity, .temperature, path: path)
        case .number(let number):
            let code = unit == "F" ? "degF" : unit == "C" ? "degC" : "temperatureUnit \(unit ?? "none")"
            return try convert(number, unitCode: code, to: .temperature, path: path)
        }
    }

    /// Wind speed in text ("10 mph", "5 to 10 mph", "15 km/h", "calm"): the higher
    /// figure of a range, so a page never understates the wind; or a quantity.
    static func speed(_ speed: NWSSpeed?, path: String) throws(Refusal) -> Double? {
        switch speed {
        case nil: return nil
        case .quantity(let quantity): return try self.quantity(quantity, .speed, path: path)
        case .text(let text):
            let words = text.lowercased().split(separator: " ")
            if words == ["calm"] { return 0 }
            guard let unit = words.last, let figure = words.dropLast().compactMap({ Double($0) }).max() else {
                if text.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
                throw Refusal(path: path, detail: "\"\(String(text.prefix(40)))\" is not a wind speed (\"10 mph\", \"5 to 10 mph\")")
            }
            let code = ["mph": "mi_h-1", "km/h": "km_h-1", "kt": "kt", "m/s": "m_s-1"][String(unit)] ?? String(unit)
            return try convert(figure, unitCode: code, to: .speed, path: path)
        }
    }

    /// A 16-point compass name (`NNW`) as the bearing it stands for.
    static func direction(_ name: String?, path: String) throws(Refusal) -> Double? {
        guard let name, !name.isEmpty else { return nil }
        guard let index = Compass.points.firstIndex(of: name.uppercased()) else {
            throw Refusal(path: path, detail: "\"\(String(name.prefix(10)))\" is not a compass point (N, NNE … NNW)")
        }
        return Double(index) * 22.5
    }
}
