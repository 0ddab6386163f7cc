import Foundation

/// The Present stage: turns a `Forecast` into page models with every value formatted
/// in the city's units, the site's language and the city's local time.
public struct Presenter: Sendable {
    public var language: String
    public var icons: IconCatalog

    public init(language: String, icons: IconCatalog) {
        self.language = language
        self.icons = icons
    }

    /// How many hours ahead the hourly table reaches.
    static let hourlyHorizon: TimeInterval = 48 * 3600
    static let pollutantNames: [(key: String, name: String)] = [
        ("pm2_5", "PM2.5"), ("pm10", "PM10"), ("o3", "O₃"), ("no2", "NO₂"),
    ]

    func icon(_ condition: Condition, root: String) -> CityPageModel.Icon {
        CityPageModel.Icon(src: root + "assets/" + icons.path(for: condition.icon), alt: Self.sentence(condition.description))
    }

    /// "light rain" → "Light rain": API descriptions are lowercase.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// Today's entry of the daily forecast, in the city's local calendar.
    static func today(_ forecast: Forecast) -> DailyForecast? {
        let key = LocalDay.key(for: forecast.current.time, in: forecast.location.timeZone)
        return forecast.daily.first { $0.day == key }
    }

    public func cityPage(_ forecast: Forecast, city: CityConfig, places: [Place], root: String) -> CityPageModel {
        let format = UnitFormatter(units: city.units)
        let clock = LocalTimeFormatter(zone: forecast.location.timeZone, language: language)
        let current = forecast.current
        let today = Self.today(forecast)
        let primary = current.conditions.first ?? Condition(code: 0, main: "", description: "", icon: "")
        let others = current.conditions.dropFirst().map(\.description)

        let now = CityPageModel.Now(
            icon: icon(primary, root: root),
            temperature: format.temperature(current.temperature),
            feelsLike: format.temperature(current.feelsLike),
            description: Self.sentence(primary.description),
            otherConditions: others.isEmpty ? nil : others.joined(separator: ", "),
            high: today.map { format.temperature($0.temperatureMax) },
            low: today.map { format.temperature($0.temperatureMin) },
            wind: format.speed(current.windSpeed),
            windGust: current.windGust.map(format.speed),
            windDirection: current.windDirection.map(Compass.point(for:)),
            humidity: UnitFormatter.percent(current.humidity),
            dewPoint: current.dewPoint.map(format.temperature),
            pressure: format.pressure(current.pressure),
            visibility: current.visibility.map(format.distance),
            cloudCover: UnitFormatter.percent(current.cloudCover),
            rainLastHour: current.rainLastHour.map(format.precipitation),
            snowLastHour: current.snowLastHour.map(format.precipitation),
            uvIndex: current.uvIndex.map { String(Int($0.rounded())) },
            uvCategory: current.uvIndex.map(UVCategory.of),
            sunrise: current.sunrise.map(clock.time),
            sunset: current.sunset.map(clock.time))

        let air = forecast.airQuality.map { quality in
            CityPageModel.AirQualityModel(
                index: quality.index, category: AirQualityCategory.of(quality.index),
                pollutants: Self.pollutantNames.compactMap { entry in
                    quality.components[entry.key].map { .init(name: entry.name, value: String(format: "%.1f µg/m³", $0)) }
                })
        }

        let alerts = forecast.alerts.map { alert in
            CityPageModel.Alert(
                event: Self.sentence(alert.event), sender: alert.sender,
                start: "\(clock.dayAndDate(alert.start)) \(clock.time(alert.start))",
                end: "\(clock.dayAndDate(alert.end)) \(clock.time(alert.end))",
                description: alert.description)
        }

        let horizon = current.time.addingTimeInterval(Self.hourlyHorizon)
        let hours = forecast.hourly.filter { $0.time <= horizon }.map { hour in
            CityPageModel.Hour(
                time: clock.time(hour.time), datetime: clock.iso8601(hour.time),
                icon: icon(hour.condition, root: root),
                temperature: format.temperature(hour.temperature),
                precipitationChance: UnitFormatter.percent(hour.precipitationChance * 100),
                wind: [format.speed(hour.windSpeed), hour.windDirection.map(Compass.point(for:))]
                    .compactMap { $0 }.joined(separator: " "))
        }

        let days = forecast.daily.map { day in
            CityPageModel.Day(
                weekday: clock.shortWeekday(day.time), date: clock.shortDate(day.time),
                icon: icon(day.condition, root: root),
                low: format.temperature(day.temperatureMin), high: format.temperature(day.temperatureMax),
                precipitationChance: UnitFormatter.percent(day.precipitationChance * 100),
                summary: day.summary)
        }

        let placeModels = places.map { place in
            CityPageModel.PlaceModel(
                name: place.name, description: place.description,
                wikipedia: place.wikipedia.flatMap(Self.webLink),
                openStreetMap: String(
                    format: "https://www.openstreetmap.org/?mlat=%.5f&mlon=%.5f#map=16/%.5f/%.5f",
                    place.lat, place.lon, place.lat, place.lon))
        }

        return CityPageModel(
            name: city.name, country: city.country, region: city.state, slug: city.slug,
            updated: "\(clock.dayAndDate(current.time)), \(clock.time(current.time))",
            updatedDateTime: clock.iso8601(current.time),
            units: format.temperatureSymbol,
            now: now, airQuality: air, alerts: alerts, hasAlerts: !alerts.isEmpty,
            hourlyStep: forecast.hourly.first?.stepHours == 3 ? "every 3 hours" : "hourly",
            hourly: hours, daily: days, dayCount: days.count, places: placeModels, hasPlaces: !placeModels.isEmpty,
            source: forecast.source.api.hasPrefix("openweather") ? "OpenWeather" : forecast.source.api,
            root: root)
    }

    public func indexCard(_ forecast: Forecast, city: CityConfig) -> IndexPageModel.Card {
        let format = UnitFormatter(units: city.units)
        let clock = LocalTimeFormatter(zone: forecast.location.timeZone, language: language)
        let primary = forecast.current.conditions.first ?? Condition(code: 0, main: "", description: "", icon: "")
        let today = Self.today(forecast)
        return IndexPageModel.Card(
            name: city.name, country: city.country, href: "\(city.slug)/",
            icon: icon(primary, root: ""),
            temperature: format.temperature(forecast.current.temperature),
            description: Self.sentence(primary.description),
            high: today.map { format.temperature($0.temperatureMax) },
            low: today.map { format.temperature($0.temperatureMin) },
            alertCount: forecast.alerts.count, hasAlerts: !forecast.alerts.isEmpty, plural: forecast.alerts.count > 1,
            updated: clock.time(forecast.current.time))
    }

    /// Links from data files are kept only when they are plain web addresses:
    /// a `javascript:` or `data:` link in `places.json` must never reach a page.
    static func webLink(_ text: String) -> String? {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil
        else { return nil }
        return url.absoluteString
    }
}
