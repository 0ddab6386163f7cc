/// A number the forecast carries, declared once: its name (the member of the model, and
/// so its key in forecast.json and `Forecast`'s Codable form), what it measures, where it
/// is in a row, and its column in the history. forecast.json is written and read from
/// these declarations, and the history records, reads and exports the current values
/// by them (`ForecastField+Columns.swift`); adding a value to the model is one line here
/// (and the providers' mapping).
struct ForecastField<Row>: Sendable {
    let key: StaticString
    let measure: Measure
    /// Its column in the history's `observation` table and its name in `isobar history
    /// export`: the key in snake case (`feelsLike`: `feels_like`) unless named otherwise.
    let column: String
    let get: @Sendable (Row) -> Double?
    let set: @Sendable (inout Row, Double) -> Void
    /// Removes it from a row (nothing for a required one).
    let clear: @Sendable (inout Row) -> Void
    /// A row without it is no row (a forecast hour has a temperature).
    let required: Bool

    var name: String { key.description }

    init(_ key: StaticString, _ measure: Measure, _ path: WritableKeyPath<Row, Double?> & Sendable, column: String? = nil) {
        self.key = key
        self.measure = measure
        self.column = column ?? Self.snakeCase(key.description)
        get = { $0[keyPath: path] }
        set = { $0[keyPath: path] = $1 }
        clear = { $0[keyPath: path] = nil }
        required = false
    }

    init(_ key: StaticString, _ measure: Measure, _ path: WritableKeyPath<Row, Double> & Sendable, column: String? = nil) {
        self.key = key
        self.measure = measure
        self.column = column ?? Self.snakeCase(key.description)
        get = { $0[keyPath: path] }
        set = { $0[keyPath: path] = $1 }
        clear = { _ in }
        required = true
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

extension CurrentConditions {
    /// In the order of the history's columns and export (forecast.json sorts its keys).
    static let fields: [ForecastField<Self>] = [
        .init("temperature", .temperature, \.temperature),
        .init("feelsLike", .temperature, \.feelsLike),
        .init("humidity", .percent, \.humidity),
        .init("dewPoint", .temperature, \.dewPoint),
        .init("pressure", .pressure, \.pressure),
        .init("surfacePressure", .pressure, \.surfacePressure),
        .init("windSpeed", .speed, \.windSpeed),
        .init("windGust", .speed, \.windGust),
        .init("windDirection", .direction, \.windDirection),
        .init("cloudCover", .percent, \.cloudCover),
        .init("visibility", .distance, \.visibility),
        .init("uvIndex", .uvIndex, \.uvIndex),
        .init("rainLastHour", .precipitation, \.rainLastHour, column: "rain_1h"),
        .init("snowLastHour", .precipitation, \.snowLastHour, column: "snow_1h"),
    ]
}

extension HourlyForecast {
    static let fields: [ForecastField<Self>] = [
        .init("temperature", .temperature, \.temperature),
        .init("feelsLike", .temperature, \.feelsLike),
        .init("humidity", .percent, \.humidity),
        .init("precipitationChance", .probability, \.precipitationChance),
        .init("rain", .precipitation, \.rain),
        .init("snow", .precipitation, \.snow),
        .init("windSpeed", .speed, \.windSpeed),
        .init("windGust", .speed, \.windGust),
        .init("windDirection", .direction, \.windDirection),
        .init("pressure", .pressure, \.pressure),
        .init("dewPoint", .temperature, \.dewPoint),
        .init("uvIndex", .uvIndex, \.uvIndex),
        .init("cloudCover", .percent, \.cloudCover),
        .init("visibility", .distance, \.visibility),
    ]
}

extension DailyForecast {
    static let fields: [ForecastField<Self>] = [
        .init("temperatureMin", .temperature, \.temperatureMin),
        .init("temperatureMax", .temperature, \.temperatureMax),
        .init("moonPhase", .moonPhase, \.moonPhase),
        .init("precipitationChance", .probability, \.precipitationChance),
        .init("rain", .precipitation, \.rain),
        .init("snow", .precipitation, \.snow),
        .init("windSpeed", .speed, \.windSpeed),
        .init("windGust", .speed, \.windGust),
        .init("windDirection", .direction, \.windDirection),
        .init("uvIndex", .uvIndex, \.uvIndex),
        .init("humidity", .percent, \.humidity),
        .init("pressure", .pressure, \.pressure),
        .init("dewPoint", .temperature, \.dewPoint),
        .init("cloudCover", .percent, \.cloudCover),
    ]
}
