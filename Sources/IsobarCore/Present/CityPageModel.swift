/// Everything `city.md` shows, already formatted in the city's units, the site's
/// language and the city's local time: templates only place values. Each value is
/// escaped by the renderer; the two SVG strings are built (and escaped) in Swift.
///
/// The `has…`/`…Count` values are stored, not computed, so a template can use them and
/// `TemplateFieldTests` can find them (it checks every stored property is reachable).
///
/// A value a forecast row declares as shown (`ForecastField.shown`: humidity, pressure, a
/// chance of rain…) is no member of its own: `Now`, `Hour` and `Day` hold them all in
/// `measured`, and templates find them under the declared names. The members here are
/// what is not one declared value: words, times, icons, wind, and values shown otherwise.
public struct CityPageModel: Sendable {
    public struct Icon: Sendable, Codable, Equatable {
        /// Relative URL of the icon from the page.
        public var src: String
        /// The condition description: the icon's alt text.
        public var alt: String
    }

    public struct Wind: Sendable {
        /// Speed and compass point, as a table cell shows them: "5 m/s SW".
        public var text: String
        public var speed: Quantity
        public var gust: Quantity?
        /// Compass point the wind comes from, e.g. `SW`.
        public var direction: String?
        /// Degrees the wind comes from, 0…360 (meteorological), whole.
        public var degrees: String?
        /// Degrees to turn the arrow so it points where the wind blows to.
        public var arrowRotation: String?
        public var beaufort: String
        public var beaufortForce: Int
        /// The force on the scale in words: "Beaufort 4", "Windstärke 4", "4 балла".
        public var beaufortScale: String
        /// Seconds per sweep of the wind animation: shorter in stronger wind; nil when calm.
        public var animationPeriod: String?
    }

    public struct Now: Sendable {
        public var icon: Icon?
        /// With its unit ("9 °C"), unlike the measured values.
        public var temperature: Quantity
        public var description: String
        /// Every condition the data names, as the language lists them (CLDR: "Light rain,
        /// mist", "Leichter Regen und Dunst"); the description alone when there is one.
        public var conditions: String
        public var high: Quantity?
        public var low: Quantity?
        public var wind: Wind?
        /// The values `CurrentConditions.fields` declares as shown, by those names.
        var measured: MeasuredValues<CurrentConditions>
        public var uvCategory: Category?
        public var sunrise: String?
        public var sunset: String?
        /// "Polar night" or "Midnight sun" on a day without sunrise or sunset.
        public var polarDay: String?
        public var dayLength: String?
        public var moonPhase: String?
        public var moonrise: String?
        public var moonset: String?
    }

    /// The next hour's rain or snow, in words and as a strip of bars.
    public struct Nowcast: Sendable {
        public var text: String
        public var strip: RenderedHTML
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
        /// Who issued it; absent when the data does not say.
        public var sender: String?
        public var start: String
        public var startDateTime: String
        public var end: String
        public var endDateTime: String
        public var description: String
        /// "Upcoming" for an alert that starts after the data time; nil when in force.
        public var upcoming: String?
        /// The sender's categories ("Wind", "Flood"), shown as small labels.
        public var tags: [String]
        public var hasTags: Bool
        /// CAP severity in the page's language ("Severe"), and its class name (`severe`);
        /// nil where the source sends none.
        public var severity: String? = nil
        public var severityClass: String? = nil
        /// What to do, in the sender's words.
        public var instruction: String? = nil
        /// The area it is issued for, in the sender's words.
        public var area: String? = nil
        /// The warning service it came from ("MeteoAlarm").
        public var source: String? = nil
    }

    public struct Hour: Sendable {
        public var time: String
        public var datetime: String
        public var icon: Icon?
        /// The values `HourlyForecast.fields` declares as shown, by those names.
        var measured: MeasuredValues<HourlyForecast>
        /// "rain", or "snow" at or below freezing.
        public var precipitationKind: String
        /// Rain and snow expected in the step ("0.4 mm"); nil when none is forecast.
        public var precipitationAmount: Quantity?
        public var wind: Wind?
    }

    public struct Day: Sendable {
        public var weekday: String
        public var date: String
        public var datetime: String
        public var icon: Icon?
        public var low: Quantity
        public var high: Quantity
        /// Where the low–high bar starts and how wide it is, in % of the week's range.
        public var rangeStart: String
        public var rangeWidth: String
        /// The values `DailyForecast.fields` declares as shown, by those names.
        var measured: MeasuredValues<DailyForecast>
        public var precipitationKind: String
        /// The day's total of rain and snow.
        public var precipitationAmount: Quantity?
        public var summary: String?
        public var wind: Wind?
        public var uvCategory: Category?
        public var sunrise: String?
        public var sunset: String?
        public var dayLength: String?
        public var moonPhase: String?
        public var moonrise: String?
        public var moonset: String?
        /// The day's climate normal; absent without one (NormalsModel.swift).
        public var normal: DayNormal? = nil
    }

    public struct PlaceModel: Sendable {
        public var number: Int
        public var anchor: String
        public var name: String
        public var description: String
        public var wikipedia: String?
        public var openStreetMap: String
        /// Relative URL of `Public/places/<file>` when the theme has that image.
        public var image: String?
    }

    public struct Share: Sendable {
        public var url: String
        public var email: String
        public var text: String
    }

    public var t: [String: String]
    public var name: String
    public var country: String
    public var region: String?
    public var slug: String
    public var updated: String
    public var updatedDate: String
    public var updatedDateTime: String
    /// Shown when the latest update failed and the page is built from older cached data.
    public var staleNote: String?
    /// The `lang` of the condition descriptions, which may differ from the page's.
    public var descriptionLanguage: String
    public var now: Now
    public var nowcast: Nowcast?
    public var airQuality: AirQualityModel?
    public var alerts: [Alert]
    public var hasAlerts: Bool
    /// Said beside or instead of the warnings: none in force, none available for the
    /// place, or that they could not be fetched; nil where the build did not ask.
    public var warningsNote: String? = nil
    /// `°C`, `°F` or `K`, for column headings.
    public var temperatureUnit: String
    public var hourlyStep: String
    /// "Next 48 hours", or fewer when the data holds fewer.
    public var hourlyHeading: String
    public var hourly: [Hour]
    /// False when the data has no hourly forecast: the section is left out, not shown empty.
    public var hasHourly: Bool
    // A column no hour has a value for is left out of the table, not shown empty.
    public var hourlyHasIcons: Bool
    public var hourlyHasPrecipitation: Bool
    public var hourlyHasWind: Bool
    public var hourlyChart: RenderedHTML
    public var daily: [Day]
    public var hasDaily: Bool
    public var dayCount: Int
    public var places: [PlaceModel]
    public var hasPlaces: Bool
    public var placesMap: RenderedHTML
    /// The city's past (`history` sections); absent without a history to back it.
    public var history: History?
    /// Today against the climate normals; absent without them (NormalsModel.swift).
    public var normals: Normals? = nil
    public var share: Share
    public var source: String
    /// Relative path from the page to the site root.
    public var root: String
    /// The link to the index in the page's language (`../index.html`, `../../he/index.html`).
    public var home: String
}
