// The NWS API (https://www.weather.gov/documentation/services-web-api, and its OpenAPI
// description at https://api.weather.gov/openapi.json), as GeoJSON (`application/geo+json`).
// Names are the wire's. Only what Isobar reads is declared; every value may be missing or
// null, as the API's schema allows, but the structure and the times are required.

/// `/points/{lat},{lon}`: which forecast office's grid square the point falls in, the
/// three forecast URLs of that square, and the point's time zone.
struct NWSPointsBody: Decodable {
    struct Geometry: Decodable {
        /// [longitude, latitude], as asked.
        var coordinates: [Double]
    }

    struct Properties: Decodable {
        var gridId: String?
        var gridX: Int?
        var gridY: Int?
        var forecast: String?
        var forecastHourly: String?
        var forecastGridData: String?
        /// IANA zone, `America/Denver`.
        var timeZone: String?
    }

    var geometry: Geometry?
    var properties: Properties
}

/// A value with its unit (`{"unitCode": "wmoUnit:degC", "value": -1.1}`); the API's newer
/// form of some period values also has `minValue` and `maxValue`.
struct NWSQuantity: Decodable {
    var unitCode: String?
    var value: Double?
    var minValue: Double?
    var maxValue: Double?
}

/// A period's temperature: a number in `temperatureUnit` (F or C), or a quantity.
enum NWSTemperature: Decodable {
    case number(Double)
    case quantity(NWSQuantity)

    init(from decoder: Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let number = try? single.decode(Double.self) { self = .number(number) } else { self = .quantity(try single.decode(NWSQuantity.self)) }
    }
}

/// A period's wind speed or gust: text (`"10 mph"`, `"5 to 10 mph"`, `"15 km/h"`) or a quantity.
enum NWSSpeed: Decodable {
    case text(String)
    case quantity(NWSQuantity)

    init(from decoder: Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let text = try? single.decode(String.self) { self = .text(text) } else { self = .quantity(try single.decode(NWSQuantity.self)) }
    }
}

/// `forecast` (12-hour periods, "Tonight", "Wednesday" …, with their text) and
/// `forecast/hourly` (hour by hour, without text): the same shape.
struct NWSForecastBody: Decodable {
    struct Properties: Decodable {
        var periods: [Period]
    }

    struct Period: Decodable {
        var name: String?
        /// ISO 8601 with the zone's offset: `2026-11-25T11:00:00-07:00`.
        var startTime: String
        var endTime: String
        var isDaytime: Bool?
        var temperature: NWSTemperature?
        /// "F" or "C", for a number `temperature`.
        var temperatureUnit: String?
        var probabilityOfPrecipitation: NWSQuantity?
        var dewpoint: NWSQuantity?
        var relativeHumidity: NWSQuantity?
        var windSpeed: NWSSpeed?
        var windGust: NWSSpeed?
        /// A 16-point compass name: `NNW`.
        var windDirection: String?
        /// `https://api.weather.gov/icons/land/day/rain,40?size=medium`.
        var icon: String?
        var shortForecast: String?
        var detailedForecast: String?
    }

    var properties: Properties
}

/// `/gridpoints/{wfo}/{x},{y}`: the forecast office's numbers, one layer a quantity, each a
/// series of values over ISO 8601 intervals (`2026-11-25T18:00:00+00:00/PT3H`), equal
/// neighbours merged (https://weather-gov.github.io/api/gridpoints).
struct NWSGridBody: Decodable {
    struct Layer: Decodable {
        /// `wmoUnit:degC`, `wmoUnit:km_h-1`, `wmoUnit:mm`, `wmoUnit:percent` …
        var uom: String?
        var values: [Value]
    }

    struct Value: Decodable {
        var validTime: String
        var value: Double?
    }

    struct Properties: Decodable {
        var dewpoint: Layer?
        var relativeHumidity: Layer?
        var apparentTemperature: Layer?
        var skyCover: Layer?
        var windGust: Layer?
        var probabilityOfPrecipitation: Layer?
        var quantitativePrecipitation: Layer?
        var snowfallAmount: Layer?
        var visibility: Layer?
    }

    var properties: Properties
}
