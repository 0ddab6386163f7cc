/// A number the forecast carries, declared once: its name (the member of the model, and
/// so its key in forecast.json and `Forecast`'s Codable form), what it measures, where it
/// is in a row, its column in the history, and whether a city page shows it as a field of
/// its own. forecast.json is written and read from these declarations, the history
/// records, reads and exports the current values by them (`ForecastField+Columns.swift`),
/// and the city page's hours, days and current conditions hold and name their measured
/// values by them (`MeasuredValues`, `TemplateField.measured`); adding a value to the
/// model is one line here (and the providers' mapping).
struct ForecastField<Row>: Sendable {
    let key: StaticString
    let measure: Measure
    /// Its column in the history's `observation` table and its name in `isobar history
    /// export`: the key in snake case (`feelsLike`: `feels_like`) unless named otherwise.
    let column: String
    /// Reads it from a row (`field.get(row)`).
    let get: Reader
    let set: @Sendable (inout Row, Double) -> Void
    /// Removes it from a row (nothing for a required one).
    let clear: @Sendable (inout Row) -> Void
    /// A row without it is no row (a forecast hour has a temperature).
    var required: Bool { self.get.required }
    /// A city page's field of its own, named as the value is (`{{humidity}}`); nil where
    /// a page shows it only inside another field (the wind's speeds and direction in
    /// `wind`, a day's extremes as `low` and `high`, the moon phase in words, the current
    /// temperature with its unit).
    let shown: Shown?

    /// What the template reference says of a value a page shows.
    struct Shown: Sendable {
        /// Its line in the reference.
        let summary: String
        /// A typical reading in the canonical unit: the reference's example is this, as an
        /// English page in metric units formats it, so it cannot differ from what pages print.
        let sample: Double

        init(_ summary: String, sample: Double) {
            self.summary = summary
            self.sample = sample
        }
    }

    /// Where the value lies in a row. Every declaration names a stored property, so the
    /// value is loaded at its offset: a closure per field (as `set` is) copied the whole row
    /// before reading one number, for each value of each hour written to forecast.json or
    /// shown on a page (2 % of a build).
    struct Reader: Sendable {
        let offset: Int
        /// A `Double` there, not a `Double?`.
        let required: Bool

        init(_ path: PartialKeyPath<Row>, required: Bool) {
            guard let offset = MemoryLayout<Row>.offset(of: path) else {
                preconditionFailure("a forecast field must be a stored property of \(Row.self)")
            }
            self.offset = offset
            self.required = required
        }

        /// The value in the row at `row`. What reads many values of a row points to it once
        /// (`withUnsafePointer(to:)`) and reads them all here: reading each from the row
        /// itself copied the row (some 300 bytes) into memory for each value.
        @inline(__always)
        func callAsFunction(_ row: UnsafePointer<Row>) -> Double? {
            let bytes = UnsafeRawPointer(row)
            return required ? bytes.load(fromByteOffset: offset, as: Double.self) : bytes.load(fromByteOffset: offset, as: Double?.self)
        }

        /// One value of `row`.
        func callAsFunction(_ row: Row) -> Double? {
            withUnsafePointer(to: row) { self($0) }
        }
    }

    var name: String { key.description }

    init(_ key: StaticString, _ measure: Measure, _ path: WritableKeyPath<Row, Double?> & Sendable, column: String? = nil, shown: Shown? = nil) {
        self.key = key
        self.measure = measure
        self.column = column ?? Self.snakeCase(key.description)
        get = Reader(path, required: false)
        set = { $0[keyPath: path] = $1 }
        clear = { $0[keyPath: path] = nil }
        self.shown = shown
    }

    init(_ key: StaticString, _ measure: Measure, _ path: WritableKeyPath<Row, Double> & Sendable, column: String? = nil, shown: Shown? = nil) {
        self.key = key
        self.measure = measure
        self.column = column ?? Self.snakeCase(key.description)
        get = Reader(path, required: true)
        set = { $0[keyPath: path] = $1 }
        clear = { _ in }
        self.shown = shown
    }

    /// `feelsLike` → `feels_like`.
    private static func snakeCase(_ key: String) -> String {
        key.reduce(into: "") { name, character in
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
    }

    /// `row` with only the numbers it cannot be without.
    static func requiredOnly(_ row: Row, _ fields: [Self]) -> Row {
        fields.reduce(into: row) { row, field in field.clear(&row) }
    }
}

/// What a forecast number measures, in the model's canonical unit, and the values a real
/// reading can take there: wider than any record (−89 °C, 57 °C, 113 m/s gusts, 1,825 mm
/// of rain in a day), so a real extreme always passes. The providers' plausibility rules
/// are these ranges in the units each response is in.
enum Measure: Sendable {
    /// °C.
    case temperature
    /// m/s.
    case speed
    /// Degrees from north, where the wind comes from.
    case direction
    /// hPa.
    case pressure
    /// 0…100.
    case percent
    /// 0…1.
    case probability
    /// mm.
    case precipitation
    /// Metres.
    case distance
    case uvIndex
    /// 0 and 1 new moon, 0.5 full.
    case moonPhase

    /// The canonical unit's symbol, as the history's export names it.
    var unit: StaticString {
        switch self {
        case .temperature: "°C"
        case .speed: "m/s"
        case .direction: "°"
        case .pressure: "hPa"
        case .percent: "%"
        case .probability: "0…1"
        case .precipitation: "mm"
        case .distance: "m"
        case .uvIndex: "UV index"
        case .moonPhase: "0…1, 0.5 full"
        }
    }

    var range: ClosedRange<Double> {
        switch self {
        case .temperature: -100...100
        case .speed: 0...150
        case .direction: 0...360
        case .pressure: 300...1_200
        case .percent: 0...100
        case .probability, .moonPhase: 0...1
        case .precipitation: 0...2_000
        case .distance: 0...1_000_000
        case .uvIndex: 0...50
        }
    }
}

/// A row of the forecast whose numbers are declared: what code made for all three rows
/// (the city page's measured fields) reaches the declarations by.
protocol ForecastRow: Sendable {
    static var fields: [ForecastField<Self>] { get }
}

extension CurrentConditions: ForecastRow {
    /// In the order of the history's columns and export (forecast.json sorts its keys).
    static let fields: [ForecastField<Self>] = [
        // Shown with its unit ("9 °C"), unlike every other temperature: `Now.temperature`.
        .init("temperature", .temperature, \.temperature),
        .init("feelsLike", .temperature, \.feelsLike, shown: .init("Apparent temperature", sample: 7)),
        .init("humidity", .percent, \.humidity, shown: .init("Relative humidity", sample: 81)),
        .init("dewPoint", .temperature, \.dewPoint, shown: .init("Dew point", sample: 6)),
        .init("pressure", .pressure, \.pressure, shown: .init("Pressure at sea level", sample: 1013)),
        .init("surfacePressure", .pressure, \.surfacePressure, shown: .init("Pressure at the ground, where no sea-level value exists", sample: 1002)),
        .init("windSpeed", .speed, \.windSpeed),
        .init("windGust", .speed, \.windGust),
        .init("windDirection", .direction, \.windDirection),
        .init("cloudCover", .percent, \.cloudCover, shown: .init("Cloud cover", sample: 75)),
        .init("visibility", .distance, \.visibility, shown: .init("Visibility", sample: 10_000)),
        .init("uvIndex", .uvIndex, \.uvIndex, shown: .init("UV index", sample: 3)),
        .init("rainLastHour", .precipitation, \.rainLastHour, column: "rain_1h", shown: .init("Rain in the last hour", sample: 0.4)),
        .init("snowLastHour", .precipitation, \.snowLastHour, column: "snow_1h", shown: .init("Snow in the last hour (water equivalent)", sample: 0.2)),
    ]
}

extension HourlyForecast: ForecastRow {
    static let fields: [ForecastField<Self>] = [
        .init("temperature", .temperature, \.temperature, shown: .init("Temperature", sample: 9)),
        .init("feelsLike", .temperature, \.feelsLike, shown: .init("Apparent temperature", sample: 7)),
        .init("humidity", .percent, \.humidity, shown: .init("Relative humidity", sample: 81)),
        .init("precipitationChance", .probability, \.precipitationChance, shown: .init("Chance of rain or snow", sample: 0.4)),
        .init("rain", .precipitation, \.rain, shown: .init("Rain expected in the step", sample: 0.4)),
        .init("snow", .precipitation, \.snow, shown: .init("Snow expected in the step (water equivalent)", sample: 0.2)),
        .init("windSpeed", .speed, \.windSpeed),
        .init("windGust", .speed, \.windGust),
        .init("windDirection", .direction, \.windDirection),
        .init("pressure", .pressure, \.pressure, shown: .init("Pressure at sea level", sample: 1013)),
        .init("dewPoint", .temperature, \.dewPoint, shown: .init("Dew point", sample: 6)),
        .init("uvIndex", .uvIndex, \.uvIndex, shown: .init("UV index (not in the free 2.5 forecast)", sample: 1)),
        .init("cloudCover", .percent, \.cloudCover, shown: .init("Cloud cover", sample: 75)),
        .init("visibility", .distance, \.visibility, shown: .init("Visibility", sample: 10_000)),
    ]
}

extension DailyForecast: ForecastRow {
    static let fields: [ForecastField<Self>] = [
        // Shown as `low` and `high`, and as the bar of the week's range.
        .init("temperatureMin", .temperature, \.temperatureMin),
        .init("temperatureMax", .temperature, \.temperatureMax),
        .init("moonPhase", .moonPhase, \.moonPhase),
        .init("precipitationChance", .probability, \.precipitationChance, shown: .init("Chance of rain or snow", sample: 0.6)),
        .init("rain", .precipitation, \.rain, shown: .init("The day's rain", sample: 3.2)),
        .init("snow", .precipitation, \.snow, shown: .init("The day's snow (water equivalent)", sample: 1)),
        .init("windSpeed", .speed, \.windSpeed),
        .init("windGust", .speed, \.windGust),
        .init("windDirection", .direction, \.windDirection),
        .init("uvIndex", .uvIndex, \.uvIndex, shown: .init("The day's highest UV index", sample: 2)),
        .init("humidity", .percent, \.humidity, shown: .init("Relative humidity (the day's mean; not from Open-Meteo)", sample: 78)),
        .init("pressure", .pressure, \.pressure, shown: .init("Pressure at sea level (not from Open-Meteo)", sample: 1012)),
        .init("dewPoint", .temperature, \.dewPoint, shown: .init("Dew point (not from Open-Meteo)", sample: 5)),
        .init("cloudCover", .percent, \.cloudCover, shown: .init("Cloud cover (not from Open-Meteo)", sample: 80)),
    ]
}
