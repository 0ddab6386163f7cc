import Foundation
import Testing
@testable import IsobarCore

/// Each number of the forecast is declared once (`ForecastField`), and forecast.json is
/// written from the declarations: a value added to a row's table appears in the file, in
/// key order, and every declared name is the model's own (its `Codable` key).
@Suite struct ForecastFieldsTests {
    /// A row as a provider's would be, with one value more than the model has.
    struct Row: Sendable {
        var time: Date
        var temperature: Double
        var ozone: Double?
    }

    @Test func aDeclaredValueIsWrittenInKeyOrderAndLeftOutWhenAbsent() {
        let fields: [ForecastField<Row>] = [.init("temperature", .temperature, \.temperature), .init("ozone", .percent, \.ozone)]
        let layout = JSONText.layout(fields, [("time", { json, key, row in json.field(key, row.time) })])
        #expect(layout.map(\.key) == ["ozone", "temperature", "time"])
        func written(_ row: Row) -> String {
            let json = JSONText()
            json.members(row, layout)
            return String(decoding: json.bytes, as: UTF8.self)
        }
        let time = Date(timeIntervalSince1970: 1_795_348_800)
        #expect(written(Row(time: time, temperature: -3.5, ozone: 41.25)) == #"{"ozone":41.25,"temperature":-3.5,"time":"2026-11-22T12:00:00Z"}"#)
        #expect(written(Row(time: time, temperature: 9, ozone: nil)) == #"{"temperature":9,"time":"2026-11-22T12:00:00Z"}"#)
    }

    /// Every declared value is a member of the model under that name, and reads back from
    /// forecast.json as it was (six decimals at most); the required ones are the model's
    /// non-optional numbers.
    @Test func everyDeclaredNameIsTheModelsOwn() throws {
        let forecast = try Fixtures.forecast()
        let data = try ForecastJSON.data(forecast, slug: "x")
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["forecast"] as? [String: Any]
        let current = try #require(document?["current"] as? [String: Any])
        let hour = try #require((document?["hourly"] as? [[String: Any]])?.first)
        let day = try #require((document?["daily"] as? [[String: Any]])?.first)
        func check<Row>(_ fields: [ForecastField<Row>], _ row: Row, _ json: [String: Any], required: Set<String>) {
            #expect(Set(fields.filter(\.required).map(\.name)) == required)
            for field in fields {
                let written = json[field.name] as? Double
                #expect(written == field.get(row).map { ($0 * 1e6).rounded() / 1e6 }, "\(field.name)")
                var copy = row
                field.set(&copy, 12.5)
                #expect(field.get(copy) == 12.5, "\(field.name) is set where it is read")
            }
        }
        check(CurrentConditions.fields, forecast.current, current, required: ["temperature"])
        check(HourlyForecast.fields, forecast.hourly[0], hour, required: ["temperature"])
        check(DailyForecast.fields, forecast.daily[0], day, required: ["temperatureMin", "temperatureMax"])
        // Every number the model's Codable form has is declared (the rest are times, codes and words).
        let undeclared = Set(current.keys).subtracting(CurrentConditions.fields.map(\.name))
        #expect(undeclared == ["time", "sunrise", "sunset", "conditions"])
        #expect(Set(hour.keys).subtracting(HourlyForecast.fields.map(\.name)) == ["time", "stepHours", "condition"])
        #expect(Set(day.keys).subtracting(DailyForecast.fields.map(\.name)).isSubset(of: ["time", "day", "sunrise", "sunset", "moonrise", "moonset", "summary", "condition"]))
    }

    /// The providers' plausibility rules are the model's ranges in the units a response
    /// is in: the ones in other units convert back to them (rounded outwards, never in).
    @Test func plausibilityRangesAreTheModelsConverted() {
        func close(_ a: Double, _ b: Double, within: Double = 1e-9) -> Bool { abs(a - b) <= within }
        for (units, range) in [(Units.imperial, PlausibilityRules.temperature(fahrenheit: true).bounds),
                               (.standard, PlausibilityRules.temperature(fahrenheit: false, kelvin: true).bounds),
                               (.metric, PlausibilityRules.temperature(fahrenheit: false).bounds)] {
            let conversion = UnitConversion(units: units)
            #expect(close(conversion.celsius(range.lowerBound), Measure.temperature.range.lowerBound), "\(units)")
            #expect(close(conversion.celsius(range.upperBound), Measure.temperature.range.upperBound), "\(units)")
        }
        let mph = PlausibilityRules.speed(milesPerHour: true).bounds
        let converted = UnitConversion(units: .imperial).metresPerSecond(mph.upperBound)
        #expect(mph.lowerBound == 0 && converted >= Measure.speed.range.upperBound && converted < Measure.speed.range.upperBound + 1)
        #expect(PlausibilityRules.speed(milesPerHour: false).bounds == Measure.speed.range)
    }
}
