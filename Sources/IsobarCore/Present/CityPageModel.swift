/// Everything `city.md` shows, already formatted: templates only place values.
/// Each value is HTML- and Markdown-escaped by the renderer.
public struct CityPageModel: Sendable {
    public struct Icon: Sendable {
        /// Relative URL of the icon from the page.
        public var src: String
        /// The condition description: the icon's alt text.
        public var alt: String
    }

    public struct Now: Sendable {
        public var icon: Icon
        public var temperature: String
        public var feelsLike: String
        public var description: String
        public var otherConditions: String?
        public var high: String?
        public var low: String?
        public var wind: String
        public var windGust: String?
        public var windDirection: String?
        public var humidity: String
        public var dewPoint: String?
        public var pressure: String
        public var visibility: String?
        public var cloudCover: String
        public var rainLastHour: String?
        public var snowLastHour: String?
        public var uvIndex: String?
        public var uvCategory: Category?
        public var sunrise: String?
        public var sunset: String?
    }

    public struct AirQualityModel: Sendable {
        public struct Pollutant: Sendable {
            public var name: String
            public var value: String
        }
        public var index: Int
        public var category: Category
        public var pollutants: [Pollutant]
    }

    public struct Alert: Sendable {
        public var event: String
        public var sender: String
        public var start: String
        public var end: String
        public var description: String
    }

    public struct Hour: Sendable {
        public var time: String
        public var datetime: String
        public var icon: Icon
        public var temperature: String
        public var precipitationChance: String
        public var wind: String
    }

    public struct Day: Sendable {
        public var weekday: String
        public var date: String
        public var icon: Icon
        public var low: String
        public var high: String
        public var precipitationChance: String
        public var summary: String?
    }

    public struct PlaceModel: Sendable {
        public var name: String
        public var description: String
        public var wikipedia: String?
        public var openStreetMap: String
    }

    public var name: String
    public var country: String
    public var region: String?
    public var slug: String
    public var updated: String
    public var updatedDateTime: String
    public var units: String
    public var now: Now
    public var airQuality: AirQualityModel?
    public var alerts: [Alert]
    public var hasAlerts: Bool
    public var hourlyStep: String
    public var hourly: [Hour]
    public var daily: [Day]
    public var dayCount: Int
    public var places: [PlaceModel]
    public var hasPlaces: Bool
    public var source: String
    /// Relative path from the page to the site root.
    public var root: String
    // The `has…`/`…Count` values are stored, not computed: Mustache reads models
    // through `Mirror`, which sees stored properties only.
}
