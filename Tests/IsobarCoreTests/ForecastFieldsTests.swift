import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// Each number of the forecast is declared once (`ForecastField`), and forecast.json, the
/// history and the city page's fields are made from the declarations: a value added to a
/// row's table appears in the file, in key order, in the history's columns, binds, reads
/// and export, and as a template field; every declared name is the model's own (its
/// `Codable` key).
@Suite struct ForecastFieldsTests {
    /// A row as a provider's would be, with one value more than the model has, which a
    /// page shows.
    struct Row: ForecastRow {
        var time: Date
        var temperature: Double
        var ozone: Double?

        static let fields: [ForecastField<Self>] = [
            .init("temperature", .temperature, \.temperature),
            .init("ozone", .percent, \.ozone, shown: .init("Ozone", sample: 41)),
        ]
    }

    /// A page model with such rows: a field of its own, and the rows' shown values.
    struct Page: TemplateModel {
        var name: String
        var measured: MeasuredValues<Row>

        static let fields = TemplateFields<Self>("OzonePage", "A page of the fixture's rows.", [
            .init("name", \.name, "Its name", example: "Lisbon"),
        ] + TemplateField.measured(\.measured))
    }

    @Test func aDeclaredValueIsWrittenInKeyOrderAndLeftOutWhenAbsent() {
        let fields = Row.fields
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

    /// The same value is a column of the history: a table made before it was declared
    /// gains it, a row is bound by column name (nothing by position) and reads back, and
    /// a value not there is NULL, not 0.
    @Test func aDeclaredValueIsAHistoryColumn() throws {
        let fields = Row.fields
        #expect(fields.map(\.columnDefinition) == ["temperature REAL NOT NULL", "ozone REAL"])
        let time = Date(timeIntervalSince1970: 1_795_348_800)
        let read = try DatabaseQueue().write { db -> [Row] in
            try db.execute(sql: "CREATE TABLE reading (time INTEGER NOT NULL, temperature REAL NOT NULL)")
            try ForecastField.addColumns(fields, to: "reading", db)
            try ForecastField.addColumns(fields, to: "reading", db)  // once only
            #expect(try db.columns(in: "reading").map(\.name) == ["time", "temperature", "ozone"])
            let insert = SQLStatement.insert("INSERT", into: "reading", ["time"] + fields.map(\.column))
            #expect(insert == "INSERT INTO reading (time, temperature, ozone) VALUES (:time, :temperature, :ozone)")
            for (offset, row) in [Row(time: time, temperature: -3.5, ozone: 41.25), Row(time: time, temperature: 9, ozone: nil)].enumerated() {
                var values = ForecastField.arguments(of: row, fields)
                values["time"] = offset
                try db.execute(sql: insert, arguments: StatementArguments(values))
            }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM reading WHERE ozone IS NULL") == 1)
            return try GRDB.Row.fetchAll(db, sql: "SELECT * FROM reading ORDER BY time").map { stored in
                var row = Row(time: time, temperature: 0, ozone: nil)
                ForecastField.read(stored, into: &row, fields)
                return row
            }
        }
        #expect(read.map(\.temperature) == [-3.5, 9] && read.map(\.ozone) == [41.25, nil])
    }

    /// A value declared as shown is a template field of the row's page model with no other
    /// edit: in the reference (`isobar fields`) with its line and its sample formatted as
    /// pages format it, answering to its name on a model as a quantity with its unit, and
    /// absent where the row has no value. A value not declared as shown is no field.
    @Test func aShownValueIsATemplateField() throws {
        let reference = FieldReference.text(Page.fields.schema, template: "ozone.md")
        #expect(reference.contains("\n  name   text       Its name — e.g. Lisbon\n  ozone  Quantity?  Ozone — e.g. 41%\n"), "\(reference)")
        #expect(Page.fields.schema.field("temperature") == nil)

        let time = Date(timeIntervalSince1970: 1_795_348_800)
        func page(_ ozone: Double?, _ format: UnitFormatter) -> Page {
            Page(name: "Lisbon", measured: MeasuredValues(Row(time: time, temperature: 12, ozone: ozone), format: format))
        }
        let metric = UnitFormatter(units: .metric)
        let renderer = TemplateRenderer(templates: [
            "page": try TemplateParser.parse("{{name}}: {{#ozone}}{{.}} ({{value}} {{unit}}){{/ozone}}{{^ozone}}none{{/ozone}}{{temperature}}", escaping: .html),
        ])
        #expect(try renderer.render("page", .object(page(41.25, metric))) == "Lisbon: 41% (41 %)")
        #expect(try renderer.render("page", .object(page(nil, metric))) == "Lisbon: none")
        #expect(page(41.25, metric).measured["ozone"] == metric.quantity(percent: 41.25))
        // In the page's language: Turkish writes the sign first.
        let turkish = UnitFormatter(units: .metric, locale: Locale(identifier: "tr"))
        #expect(try renderer.render("page", .object(page(41.25, turkish))) == "Lisbon: %41 (41 %)")
    }

    /// The real rows' shown values: each measures something a quantity shows (a direction
    /// or a moon phase does not), and no name is both one of them and a hand-written field
    /// of the page model (the first would silently win).
    @Test func everyShownValueIsAQuantityOfItsOwnName() {
        func check<Row: ForecastRow>(_ row: Row.Type, _ schema: TemplateSchema) {
            for field in Row.fields {
                guard let shown = field.shown else { continue }
                #expect(UnitFormatter(units: .metric).quantity(field.measure, shown.sample) != nil, "\(field.name)")
            }
            let names = schema.fields.map(\.name)
            #expect(Set(names).count == names.count, "\(schema.name) names a field twice")
        }
        check(CurrentConditions.self, CityPageModel.Now.fields.schema)
        check(HourlyForecast.self, CityPageModel.Hour.fields.schema)
        check(DailyForecast.self, CityPageModel.Day.fields.schema)
    }

    /// The current values' table drives the history: each is a column of `observation`,
    /// recorded, read back and exported (CSV and JSON, with its unit) with nothing written
    /// out again; a value added to `CurrentConditions.fields` goes through all of them.
    @Test func everyCurrentValueIsRecordedAndExported() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try SQLiteHistory(file: folder.url.appendingPathComponent("history.sqlite"))
        defer { store.close() }
        var forecast = try Fixtures.forecast()
        // A distinct value in each: a bind in the wrong column would show.
        for (index, field) in CurrentConditions.fields.enumerated() { field.set(&forecast.current, Double(index) + 0.25) }
        #expect(try store.record([HistoryEntry(city: "x", forecast: forecast)]) == 1)
        let columns = try store.database.read { db in try db.columns(in: "observation").map(\.name) }
        let observation = try #require(try store.observations(city: "x").first)
        let csv = String(decoding: HistoryExport.csv([observation]), as: UTF8.self).components(separatedBy: "\r\n")
        let header = csv[0].components(separatedBy: ","), values = csv[1].components(separatedBy: ",")
        let json = try #require(try JSONSerialization.jsonObject(with: HistoryExport.json(city: "x", [observation])) as? [String: Any])
        let units = try #require(json["units"] as? [String: String])
        let exported = try #require((json["observations"] as? [[String: Any]])?.first)
        for (index, field) in CurrentConditions.fields.enumerated() {
            let value = Double(index) + 0.25
            #expect(columns.contains(field.column), "\(field.name)")
            #expect(field.get(observation.values) == value, "\(field.name) read back")
            #expect(header.firstIndex(of: field.column).map { values[$0] } == "\(value)", "\(field.name) in the CSV")
            #expect(exported[field.column] as? Double == value && units[field.column] == "\(field.measure.unit)", "\(field.name) in the JSON")
        }
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
