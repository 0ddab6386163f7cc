/// The plausible range of each number a service's responses carry, by member name (each
/// service declares its own, `Services/<Name>/<Name>Plausibility.swift`). A
/// name that means different things in different places (`min` of a temperature, `speed`
/// of the wind, `1h` of rain) is looked up under its parent's name first. Elements of an
/// array are checked under the array's name, so Open-Meteo's parallel series
/// (`hourly.temperature_2m[5]`) and One Call's lists (`weather[0].id`) both resolve.
/// Names no rule knows are left alone: Isobar does not read them.
struct PlausibilityRules: Sendable {
    private struct Rule { var range: PlausibleRange?; var byParent: [String: PlausibleRange] = [:] }
    private var rules: [String: Rule] = [:]

    func range(of name: String, in parent: String?) -> PlausibleRange? {
        guard let rule = rules[name] else { return nil }
        if let parent, !rule.byParent.isEmpty, let range = rule.byParent[parent] { return range }
        return rule.range
    }

    mutating func add(_ range: PlausibleRange, _ names: String...) {
        for name in names { rules[name, default: Rule()].range = range }
    }

    mutating func add(_ range: PlausibleRange, under parents: [String], _ names: String...) {
        for parent in parents {
            for name in names { rules[name, default: Rule()].byParent[parent] = range }
        }
    }

    // The ranges are the forecast model's (`Measure`), in the units each response is in:
    // wider than any record, so a real extreme always passes; they exist to stop what no
    // weather can be, not to second-guess a provider. (PlausibilityTests checks that the
    // converted ones convert back.)

    static func temperature(fahrenheit: Bool, kelvin: Bool = false) -> PlausibleRange {
        if kelvin { return PlausibleRange("temperature", 173.15...373.15, "K") }
        return fahrenheit ? PlausibleRange("temperature", -148...212, "°F") : PlausibleRange("temperature", Measure.temperature.range, "°C")
    }

    static func speed(milesPerHour: Bool) -> PlausibleRange {
        milesPerHour ? PlausibleRange("wind speed", 0...336, "mph") : PlausibleRange("wind speed", Measure.speed.range, "m/s")
    }

    /// A data time, forecast step or alert bound: 2000…2100 (a forecast is not from 1970).
    static let time = PlausibleRange("time (seconds since 1970)", 946_684_800...4_102_444_800)
    /// Sunrise, sunset, moonrise, moonset: 0 is what the API sends when there is none (polar
    /// night, midnight sun), which presentation treats as absent.
    static let sunTime = PlausibleRange("time (seconds since 1970)", 0...4_102_444_800)
    static let utcOffset = PlausibleRange("UTC offset", -64_800...64_800, "s")
    static let percent = PlausibleRange("percentage", Measure.percent.range, "%")
    static let pressure = PlausibleRange("pressure", Measure.pressure.range, "hPa")
    static let direction = PlausibleRange("direction", Measure.direction.range, "°")
    static let uvIndex = PlausibleRange("UV index", Measure.uvIndex.range)
    static let visibility = PlausibleRange("visibility", Measure.distance.range, "m")
    static let millimetres = PlausibleRange("precipitation", Measure.precipitation.range, "mm")
    static let latitude = PlausibleRange("latitude", -90...90, "°")
    static let longitude = PlausibleRange("longitude", -180...180, "°")
    static let pollutant = PlausibleRange("concentration", 0...100_000, "µg/m³")


}
