// Apple WeatherKit REST API, `GET /api/v1/weather/{language}/{latitude}/{longitude}`, as
// documented in "WeatherKit REST API" (https://developer.apple.com/documentation/weatherkitrestapi):
// the `Weather` object holds one member per data set asked for (`currentWeather`,
// `forecastHourly`, `forecastDaily`, `forecastNextHour`, `weatherAlerts`), each with its
// `metadata`. Units are fixed, whatever the language: °C, km/h, millibars (hPa), mm and
// mm/h, metres, and fractions 0…1 for humidity, cloud cover and chances. Times are ISO
// 8601 strings (`2026-11-26T14:00:00Z`). Names are the wire's. What the documentation marks
// optional is optional here; of what it marks required, only what a page cannot do
// without (times, temperatures) is required, so that a body missing a detail still builds.

struct WeatherKitBody: Decodable {
    struct Metadata: Decodable {
        var latitude: Double
        var longitude: Double
        /// When the data was procured.
        var readTime: String?
        /// The data set could not be had from Apple's source this time.
        var temporarilyUnavailable: Bool?
    }

    /// `CurrentWeather`.
    struct Current: Decodable {
        var metadata: Metadata?
        /// The data's time.
        var asOf: String
        var cloudCover: Double?
        var conditionCode: String?
        var daylight: Bool?
        var humidity: Double?
        /// mm/h now (not an amount over the last hour).
        var precipitationIntensity: Double?
        var pressure: Double?
        var temperature: Double
        var temperatureApparent: Double?
        var temperatureDewPoint: Double?
        var uvIndex: Double?
        var visibility: Double?
        var windDirection: Double?
        var windGust: Double?
        var windSpeed: Double?
    }

    /// `HourlyForecast`.
    struct Hourly: Decodable {
        var metadata: Metadata?
        var hours: [Hour]
    }

    /// `HourWeatherConditions`: values at the start of the hour, amounts and chances over it.
    struct Hour: Decodable {
        var forecastStart: String
        var cloudCover: Double?
        var conditionCode: String?
        var daylight: Bool?
        var humidity: Double?
        var precipitationAmount: Double?
        var precipitationChance: Double?
        /// clear, precipitation, rain, snow, sleet, hail or mixed.
        var precipitationType: String?
        var pressure: Double?
        var temperature: Double
        var temperatureApparent: Double?
        var temperatureDewPoint: Double?
        var uvIndex: Double?
        var visibility: Double?
        var windDirection: Double?
        var windGust: Double?
        var windSpeed: Double?
    }

    /// `DailyForecast`.
    struct Daily: Decodable {
        var metadata: Metadata?
        var days: [Day]
    }

    /// `DayWeatherConditions`: a local day (in the requested `timezone`).
    struct Day: Decodable {
        var forecastStart: String
        var forecastEnd: String?
        var conditionCode: String?
        var maxUvIndex: Double?
        /// new, waxingCrescent, firstQuarter, waxingGibbous, full, waningGibbous,
        /// thirdQuarter or waningCrescent.
        var moonPhase: String?
        var moonrise: String?
        var moonset: String?
        var precipitationAmount: Double?
        var precipitationChance: Double?
        var precipitationType: String?
        var snowfallAmount: Double?
        var sunrise: String?
        var sunset: String?
        var temperatureMax: Double
        var temperatureMin: Double
        /// 7:00 to 19:00; its wind, humidity and cloud stand for the day's.
        var daytimeForecast: DayPart?
    }

    /// `DayPartForecast`.
    struct DayPart: Decodable {
        var cloudCover: Double?
        var conditionCode: String?
        var humidity: Double?
        var windDirection: Double?
        var windSpeed: Double?
    }

    /// `NextHourForecast`: a minute-by-minute precipitation forecast, where Apple has one.
    struct NextHour: Decodable {
        var metadata: Metadata?
        var minutes: [Minute]
    }

    /// `ForecastMinute`.
    struct Minute: Decodable {
        var startTime: String
        var precipitationChance: Double?
        /// mm/h.
        var precipitationIntensity: Double
    }

    /// `WeatherAlertCollection`.
    struct Alerts: Decodable {
        var metadata: Metadata?
        var alerts: [Alert]
    }

    /// `WeatherAlertSummary`: the event's name and its bounds; the full text is another
    /// request (`/api/v1/weatherAlert/{language}/{id}`) that Isobar does not make.
    struct Alert: Decodable {
        var id: String?
        var areaName: String?
        /// The event, e.g. "Wind Advisory".
        var description: String
        /// The reporting agency.
        var source: String?
        var effectiveTime: String
        var expireTime: String
        var eventOnsetTime: String?
        var eventEndTime: String?
        /// extreme, severe, moderate, minor or unknown.
        var severity: String?
        var detailsUrl: String?
    }

    /// Required: a page starts from it (the other data sets may be missing where Apple has none).
    var currentWeather: Current?
    var forecastHourly: Hourly?
    var forecastDaily: Daily?
    var forecastNextHour: NextHour?
    var weatherAlerts: Alerts?
}
