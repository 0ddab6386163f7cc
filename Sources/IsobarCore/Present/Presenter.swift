import Foundation

/// The Present stage: turns a `Forecast` into page models with every value formatted
/// in the city's units, the site's language and the city's local time.
public struct Presenter: Sendable {
    public var language: String
    public var icons: IconCatalog
    public var strings: Strings
    /// Files under `Public/places/`, so a place's image is shown only when it exists.
    public var placeImages: Set<String>
    public var baseURL: URL
    /// The language OpenWeather's condition descriptions are in (the one requested).
    public var apiLanguage: String

    public init(language: String, icons: IconCatalog, strings: Strings, placeImages: Set<String> = [], baseURL: URL, apiLanguage: String? = nil) {
        self.language = language
        self.apiLanguage = apiLanguage ?? language
        self.icons = icons
        self.strings = strings
        self.placeImages = placeImages
        self.baseURL = baseURL
    }

    /// How many hours ahead the hourly table and chart reach.
    static let hourlyHorizon: TimeInterval = 48 * 3600
    static let pollutantNames: [(key: String, name: String)] = [
        ("pm2_5", "PM2.5"), ("pm10", "PM10"), ("o3", "O₃"), ("no2", "NO₂"),
    ]

    /// The page's language with Latin digits throughout: numbers Isobar formats itself and
    /// those from CLDR (durations, separators) then look alike on one page, whatever the
    /// language's default numbering (Persian's is ۰–۹).
    var locale: Locale { Locale(identifier: language + "@numbers=latn") }

    /// A condition in the page's language: the strings' text for its code (`owm_500`,
    /// `wmo_61`), so one fetch serves every language; the API's own text only for a code
    /// the strings do not have.
    func describe(_ condition: Condition) -> String {
        strings.table[condition.textKey] ?? condition.description
    }

    /// Nil where the data has no condition: no picture is better than a made-up one.
    func icon(_ condition: Condition?, root: String) -> CityPageModel.Icon? {
        condition.map { CityPageModel.Icon(src: root + "assets/" + icons.path(for: $0), alt: Self.sentence(describe($0))) }
    }

    /// "light rain" → "Light rain": API descriptions are lowercase.
    static func sentence(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        if first.isASCII {
            // Most descriptions start with an ASCII letter: only a–z changes, without
            // Unicode case mapping (a combining mark after it stays in the rest).
            guard ("a"..."z").contains(first) else { return text }
            // The bytes with the first one changed, rather than two strings joined (60 a page).
            var bytes = Array(text.utf8)
            bytes[0] -= 32
            return String(decoding: bytes, as: UTF8.self)
        }
        return text.first!.uppercased() + text.dropFirst()
    }

    /// Today's entry of the daily forecast, in the city's local calendar.
    static func today(_ forecast: Forecast) -> DailyForecast? {
        let key = LocalDay.key(for: forecast.current.time, in: forecast.location.timeZone)
        return forecast.daily.first { $0.day == key }
    }

    /// Snow rather than rain: a snow condition, or a temperature at or below freezing.
    static func precipitationIsSnow(condition: Condition?, celsius: Double) -> Bool {
        (600..<700).contains(condition?.code ?? 0) || celsius <= 0
    }

    func compass(_ degrees: Double) -> String { strings[Compass.nameKeys[Compass.index(for: degrees)]] }

    func wind(speed: Double, gust: Double?, degrees: Double?, format: UnitFormatter) -> CityPageModel.Wind {
        let force = Beaufort.force(metresPerSecond: speed)
        // One sweep of the animation takes longer the calmer it is: 6 s at 1 m/s, 0.5 s in a gale.
        let period = force == 0 ? nil : FixedPoint.format(min(6, max(0.5, 6 / speed)), digits: 2) + "s"
        let direction = degrees.map { compass($0) }  // a closure: `map(compass)` copied the whole presenter
        return CityPageModel.Wind(
            text: direction.map { format.speed(speed) + " " + $0 } ?? format.speed(speed),
            speed: format.quantity(speed: speed), gust: gust.map { format.quantity(speed: $0) },
            direction: direction, degrees: degrees.map(UnitFormatter.whole),
            arrowRotation: degrees.map { UnitFormatter.whole(($0 + 180).truncatingRemainder(dividingBy: 360)) },
            beaufort: strings[Beaufort.descriptionKeys[force]], beaufortForce: force,
            beaufortScale: strings.count("beaufort_scale", Double(force)), animationPeriod: period)
    }

    func dayLength(sunrise: Date?, sunset: Date?, polar: PolarDay?) -> String? {
        switch polar {
        case .polarNight?: return duration(minutes: 0)
        case .midnightSun?: return duration(minutes: 24 * 60)
        case nil: break
        }
        guard let sunrise, let sunset, sunset > sunrise else { return nil }
        guard let minutes = Int(exactly: (sunset.timeIntervalSince(sunrise) / 60).rounded(.down)) else { return nil }
        return duration(minutes: minutes)
    }

    /// "9 hr, 14 min", "9 Std., 14 Min.", "9 ч 14 мин": CLDR's abbreviated units, in the
    /// digits the rest of the page uses.
    func duration(minutes: Int) -> String {
        DurationText.shared(locale).text(minutes: minutes)
    }

    func staleNote(_ forecast: Forecast, clock: LocalTimeFormatter) -> String {
        strings.format("stale_note", ["time": "\(clock.dayAndDate(forecast.current.time)) \(clock.time(forecast.current.time))"])
    }

    /// `url`: the page's public address (its folder, in its language's place on the site);
    /// `home`: the link to the index in the page's language. Both default to the top level's.
    public func cityPage(_ forecast: Forecast, city: CityConfig, places: [Place], map tiled: CityMap? = nil, root: String, stale: Bool = false,
                         history past: HistorySummary? = nil, url: String? = nil, home: String? = nil) -> CityPageModel {
        let format = UnitFormatter(units: city.units, locale: locale)
        let clock = LocalTimeFormatter(zone: forecast.location.timeZone, language: language, around: forecast.current.time)
        let current = forecast.current
        let today = Self.today(forecast)
        let primary = Self.primary(current)
        let others = current.conditions.dropFirst().map(describe)
        let sunrise = current.sunrise ?? today?.sunrise
        let sunset = current.sunset ?? today?.sunset
        // No sun times at all: polar night or midnight sun, where that is true.
        let polar = sunrise == nil && sunset == nil ? PolarDay.on(current.time, latitude: forecast.location.latitude) : nil

        let now = CityPageModel.Now(
            icon: icon(primary, root: root),
            temperature: format.quantity(temperature: current.temperature, withUnit: true),
            description: Self.sentence(primary.map(describe) ?? ""),
            conditions: Self.sentence(list([primary.map(describe)].compactMap { $0 } + others)),
            high: today.map { format.quantity(temperature: max($0.temperatureMax, current.temperature)) },
            low: today.map { format.quantity(temperature: min($0.temperatureMin, current.temperature)) },
            wind: current.windSpeed.map { wind(speed: $0, gust: current.windGust, degrees: current.windDirection, format: format) },
            measured: MeasuredValues(current, format: format),
            uvCategory: current.uvIndex.map { UVCategory.of($0).localized(strings) },
            sunrise: sunrise.map(clock.time),
            sunset: sunset.map(clock.time),
            polarDay: polar.map { strings[$0 == .polarNight ? "polar_night" : "midnight_sun"] },
            dayLength: dayLength(sunrise: sunrise, sunset: sunset, polar: polar),
            moonPhase: today?.moonPhase.map { strings["moon_\(MoonPhase.index($0))"] },
            moonrise: today?.moonrise.map(clock.time), moonset: today?.moonset.map(clock.time))

        let air = forecast.airQuality.map { quality in
            CityPageModel.AirQualityModel(
                index: quality.index, category: AirQualityCategory.of(quality.index).localized(strings),
                pollutants: Self.pollutantNames.compactMap { entry in
                    quality.components[entry.key].map { .init(name: entry.name, value: format.concentration($0)) }
                })
        }

        let alerts = forecast.alerts.map { alert in
            CityPageModel.Alert(
                event: Self.sentence(alert.event), sender: alert.sender.isEmpty ? nil : alert.sender,
                start: "\(clock.dayAndDate(alert.start)) \(clock.time(alert.start))", startDateTime: clock.iso8601(alert.start),
                end: "\(clock.dayAndDate(alert.end)) \(clock.time(alert.end))", endDateTime: clock.iso8601(alert.end),
                description: alert.description.trimmingCharacters(in: .whitespacesAndNewlines),
                upcoming: alert.start > current.time ? strings["upcoming"] : nil,
                tags: alert.tags.map(Self.sentence).filter { !$0.isEmpty }, hasTags: alert.tags.contains { !$0.isEmpty },
                severity: alert.severity?.label(strings), severityClass: alert.severity?.className,
                instruction: alert.instruction.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 },
                area: alert.area.flatMap { $0.isEmpty ? nil : $0 }, source: alert.source?.displayName)
        }

        // 48 hours from the first step shown, however many the source sent (Open-Meteo is
        // asked for 76, for the history's 72-hour check).
        let horizon = (forecast.hourly.first?.time ?? current.time).addingTimeInterval(Self.hourlyHorizon)
        var upcoming = forecast.hourly
        upcoming.removeAll { $0.time >= horizon }  // in place: usually nothing goes, and nothing is copied
        let hours = upcoming.map { hour in
            CityPageModel.Hour(
                time: clock.time(hour.time), datetime: clock.iso8601(hour.time),
                icon: icon(hour.condition, root: root),
                measured: MeasuredValues(hour, format: format),
                precipitationKind: strings[Self.precipitationIsSnow(condition: hour.condition, celsius: hour.temperature) ? "snow" : "rain"],
                precipitationAmount: Self.amount(rain: hour.rain, snow: hour.snow).map { format.quantity(precipitation: $0) },
                wind: hour.windSpeed.map { wind(speed: $0, gust: hour.windGust, degrees: hour.windDirection, format: format) })
        }
        let chart = chartSVG(upcoming, format: format, clock: clock)

        // One scale for the whole week, so the bars compare days at a glance.
        let weekLow = forecast.daily.map(\.temperatureMin).min() ?? 0
        let weekHigh = forecast.daily.map(\.temperatureMax).max() ?? 0
        let span = max(weekHigh - weekLow, 1)
        let days = forecast.daily.map { day in
            CityPageModel.Day(
                weekday: clock.shortWeekday(day.time), date: clock.shortDate(day.time), datetime: day.day,
                icon: icon(day.condition, root: root),
                low: format.quantity(temperature: day.temperatureMin), high: format.quantity(temperature: day.temperatureMax),
                rangeStart: Self.percentage((day.temperatureMin - weekLow) / span),
                rangeWidth: Self.percentage(max(0.04, (day.temperatureMax - day.temperatureMin) / span)),
                measured: MeasuredValues(day, format: format),
                precipitationKind: strings[Self.precipitationIsSnow(condition: day.condition, celsius: day.temperatureMax) ? "snow" : "rain"],
                precipitationAmount: Self.amount(rain: day.rain, snow: day.snow).map { format.quantity(precipitation: $0) },
                // OpenWeather writes its daily summary in English whatever `lang` asks (it
                // translates only the condition descriptions), and NWS's forecast text is
                // English: on another language's page it would be the one foreign sentence.
                summary: strings.language == "en" ? day.summary : nil,
                wind: day.windSpeed.map { wind(speed: $0, gust: day.windGust, degrees: day.windDirection, format: format) },
                uvCategory: day.uvIndex.map { UVCategory.of($0).localized(strings) },
                sunrise: day.sunrise.map(clock.time), sunset: day.sunset.map(clock.time),
                dayLength: dayLength(sunrise: day.sunrise, sunset: day.sunset, polar: nil),
                moonPhase: day.moonPhase.map { strings["moon_\(MoonPhase.index($0))"] },
                moonrise: day.moonrise.map(clock.time), moonset: day.moonset.map(clock.time))
        }

        let placeModels = places.enumerated().map { index, place in
            CityPageModel.PlaceModel(
                number: index + 1, anchor: "place-\(index + 1)",
                name: place.name, description: place.description,
                wikipedia: place.wikipedia.flatMap(Self.webLink),
                openStreetMap: Self.openStreetMapLink(latitude: place.lat, longitude: place.lon),
                image: place.image.flatMap { placeImages.contains($0) ? root + "assets/places/" + $0 : nil })
        }
        let pins = placeModels.map { model in
            let place = places[model.number - 1]
            return PlacesMap.Pin(number: model.number, name: model.name, latitude: place.lat, longitude: place.lon, anchor: model.anchor)
        }
        // Over tiles when the run has them for the city; else Isobar's own drawing.
        let map = tiled.map {
            TiledMap(map: $0, pins: pins, label: strings.count("map_of_n_places", Double(pins.count), ["city": city.name]), root: root)
                .html(id: "places-map")
        } ?? PlacesMap(pins: pins, title: strings["places_map"]).svg(id: "places-map")

        let pageURL = url ?? SiteLayout.cityURL(city.slug, base: baseURL.absoluteString)
        let shareText = "\(city.name): \(now.temperature.text) · \(now.description)"
        return CityPageModel(
            t: strings.table,
            name: city.name, country: city.country, region: city.state, slug: city.slug,
            updated: clock.time(current.time), updatedDate: clock.dayAndDate(current.time),
            updatedDateTime: clock.iso8601(current.time),
            staleNote: stale ? staleNote(forecast, clock: clock) : nil,
            // Open-Meteo sends codes, described from the UI strings; OpenWeather sends text.
            descriptionLanguage: primary.map { strings.table[$0.textKey] == nil } == true ? apiLanguage : strings.language,
            now: now, nowcast: nowcast(forecast, clock: clock), airQuality: air, alerts: alerts, hasAlerts: !alerts.isEmpty,
            warningsNote: warningsNote(forecast.warnings, shown: alerts.count),
            temperatureUnit: format.temperatureSymbol,
            hourlyStep: strings[forecast.hourly.first?.stepHours == 3 ? "every_3_hours" : "hourly"],
            hourlyHeading: strings.count("next_n_hours", Double(min(48, hours.count * (upcoming.first?.stepHours ?? 1)))),
            hourly: hours, hasHourly: !hours.isEmpty,
            hourlyHasIcons: hours.contains { $0.icon != nil },
            hourlyHasPrecipitation: upcoming.contains { $0.precipitationChance != nil } || hours.contains { $0.precipitationAmount != nil },
            hourlyHasWind: hours.contains { $0.wind != nil },
            hourlyChart: chart,
            daily: days, hasDaily: !days.isEmpty, dayCount: days.count, places: placeModels, hasPlaces: !placeModels.isEmpty, placesMap: map,
            history: history(past, format: format),
            share: .init(url: pageURL, email: Self.mailto(subject: shareText, body: pageURL), text: shareText),
            source: forecast.source.api.hasPrefix("openweather") ? "OpenWeather" : forecast.source.api,
            root: root, home: home ?? root + SiteLayout.index)
    }

    /// What the page says of the warnings beyond listing them: that a source could not be
    /// fetched, that none are in force, or that no service covers the place (rather than
    /// letting an empty list read as "no warnings").
    func warningsNote(_ coverage: WarningCoverage?, shown: Int) -> String? {
        guard let coverage else { return nil }
        if coverage.sources.isEmpty { return strings["warnings_unavailable"] }
        if !coverage.failed.isEmpty {
            return strings.format("warnings_failed", ["sources": list(coverage.failed.map(\.displayName))])
        }
        return shown == 0 ? strings["warnings_none"] : nil
    }

    func chartSVG(_ hours: [HourlyForecast], format: UnitFormatter, clock: LocalTimeFormatter) -> RenderedHTML {
        guard hours.count >= 2 else { return "" }
        let temperatures = hours.map { format.temperatureValue($0.temperature) }
        let range = [
            "low": format.temperature(hours.map(\.temperature).min()!),
            "high": format.temperature(hours.map(\.temperature).max()!),
        ]
        // The wettest hour among those with a chance at all; without any, no claim about rain.
        let summary: String
        if let wettest = hours.lazy.filter({ $0.precipitationChance != nil }).max(by: { $0.precipitationChance! < $1.precipitationChance! }) {
            summary = strings.format("chart_summary", range.merging([
                "pop": format.percent(wettest.precipitationChance! * 100),
                "time": "\(clock.shortWeekday(wettest.time)) \(clock.time(wettest.time))",
            ]) { $1 })
        } else {
            summary = strings.format("chart_summary_temperature", range)
        }
        let symbolFormat = format
        let chart = HourlyChart(
            points: zip(hours, temperatures).map { .init(time: $0.time, temperature: $1, precipitationChance: $0.precipitationChance ?? 0) },
            clock: clock,
            temperatureLabel: { value in
                let label = UnitFormatter.signed(value.rounded(.towardZero))
                return symbolFormat.units == .standard ? label : "\(label)°"
            },
            title: strings["chart_label"], summary: summary)
        return chart.svg(id: "hourly-chart")
    }

    /// "Rain, mist and haze", as the language joins a list; one item is itself (asking
    /// ICU for that showed in profiles: every page has one).
    func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.formatted(.list(type: .and).locale(locale))
    }

    /// The words the language puts around the items of a list of `count` things (["", ", ",
    /// ", and "] and "" in English), so a template can join items that are links: what
    /// comes before each item, and what comes after the last. From the same list pattern as
    /// `list`, with a marker in place of each item.
    func listJoints(count: Int) -> (before: [String], after: String) {
        guard count > 1 else { return (Array(repeating: "", count: count), "") }
        let marker = { (item: Int) in "\u{E000}\(item)\u{E001}" }
        var rest = Substring(list((0..<count).map(marker)))
        var before: [String] = []
        for item in 0..<count {
            let range = rest.range(of: marker(item))!
            before.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        return (before, String(rest))
    }

    /// What `indexCard` reads of a forecast, and all the manifest keeps of it (a tenth of a
    /// 10,000-city site's memory is the manifest): the place, the time, temperature and
    /// main condition now, today's high and low, when rain or snow starts and stops in the
    /// next hour, and the alerts (which the feed shows whole). ManifestTests checks that
    /// the excerpt gives the card the whole forecast gives.
    public static func indexExcerpt(_ forecast: Forecast) -> Forecast {
        var excerpt = forecast
        excerpt.current = ForecastField.requiredOnly(forecast.current, CurrentConditions.fields)
        excerpt.current.conditions = Array(forecast.current.conditions.prefix(1))
        (excerpt.current.sunrise, excerpt.current.sunset) = (nil, nil)
        excerpt.hourly = []
        excerpt.daily = today(forecast).map { day in
            var day = ForecastField.requiredOnly(day, DailyForecast.fields)
            (day.sunrise, day.sunset, day.moonrise, day.moonset, day.summary, day.condition) = (nil, nil, nil, nil, nil, nil)
            return [day]
        } ?? []
        excerpt.nowcast = NowcastText.window(forecast.nowcast, from: forecast.current.time).map(NowcastText.runs) ?? []
        excerpt.airQuality = nil
        return excerpt
    }

    /// `root` and `href`: from the index the card is on to the site's root and to the city's page.
    public func indexCard(_ forecast: Forecast, city: CityConfig, stale: Bool = false, root: String = "",
                          href: String? = nil) -> IndexPageModel.Card {
        let format = UnitFormatter(units: city.units, locale: locale)
        let clock = LocalTimeFormatter(zone: forecast.location.timeZone, language: language, around: forecast.current.time)
        let primary = Self.primary(forecast.current)
        let today = Self.today(forecast)
        let count = forecast.alerts.count
        // An alert that has not started yet is announced, not in force: say which.
        let upcoming = forecast.alerts.filter { $0.start > forecast.current.time }.count
        let alertLabel = switch (upcoming, count - upcoming) {
        case (0, _): strings.count("alerts_active", Double(count))
        case (_, 0): strings.count("alerts_upcoming", Double(count))
        default: strings.count("alerts_some_upcoming", Double(count), ["upcoming": String(upcoming)])
        }
        return IndexPageModel.Card(
            name: city.name, country: city.country, href: href ?? SiteLayout.cityPage(city.slug),
            icon: icon(primary, root: root),
            temperature: format.temperatureWithUnit(forecast.current.temperature),
            description: Self.sentence(primary.map(describe) ?? ""),
            high: today.map { format.temperature(max($0.temperatureMax, forecast.current.temperature)) },
            low: today.map { format.temperature(min($0.temperatureMin, forecast.current.temperature)) },
            alertCount: count, hasAlerts: count > 0,
            alertLabel: alertLabel,
            alertSeverity: forecast.alerts.compactMap(\.severity).max()?.label(strings),
            alertSeverityClass: forecast.alerts.compactMap(\.severity).max()?.className,
            staleNote: stale ? staleNote(forecast, clock: clock) : nil,
            nowcast: nowcastText(forecast, clock: clock)?.text,
            updated: clock.time(forecast.current.time))
    }

    /// The next hour in words and bars, when the nowcast covers it.
    /// The most significant current condition; nil when the body has none.
    static func primary(_ current: CurrentConditions) -> Condition? {
        current.conditions.first
    }

    /// The next hour in words, and the steps it covers, when the nowcast covers it.
    func nowcastText(_ forecast: Forecast, clock: LocalTimeFormatter) -> (text: String, steps: [NowcastStep])? {
        let now = forecast.current.time
        guard let steps = NowcastText.window(forecast.nowcast, from: now) else { return nil }
        let kind = strings[Self.precipitationIsSnow(condition: Self.primary(forecast.current), celsius: forecast.current.temperature) ? "snow" : "rain"]
        return (NowcastText(strings: strings, clock: clock).sentence(steps, from: now, kind: kind), steps)
    }

    /// The words and the strip of bars, for the city page (the index card takes the words only).
    func nowcast(_ forecast: Forecast, clock: LocalTimeFormatter) -> CityPageModel.Nowcast? {
        guard let (text, steps) = nowcastText(forecast, clock: clock) else { return nil }
        let now = forecast.current.time
        let strip = NowcastStrip(
            bars: steps.map { .init(offset: $0.time.timeIntervalSince(now) / 60, minutes: Double($0.minutes), intensity: $0.intensity) },
            title: text, labels: (strings["nowcast_now"], strings["nowcast_half"], strings["nowcast_hour"]))
        return CityPageModel.Nowcast(text: text, strip: strip.svg(id: "nowcast-strip"))
    }

    /// Rain and snow together, when any is forecast (the page says which by its kind).
    static func amount(rain: Double?, snow: Double?) -> Double? {
        let total = (rain ?? 0) + (snow ?? 0)
        return total > 0 ? total : nil
    }

    static func percentage(_ fraction: Double) -> String {
        FixedPoint.format(min(100, max(0, fraction * 100)), digits: 1) + "%"
    }

    static func openStreetMapLink(latitude: Double, longitude: Double) -> String {
        let lat = FixedPoint.format(latitude, digits: 5), lon = FixedPoint.format(longitude, digits: 5)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=16/\(lat)/\(lon)"
    }

    /// A `mailto:` link whose subject and body are percent-encoded.
    static func mailto(subject: String, body: String) -> String {
        var link = Array("mailto:?subject=".utf8)
        percentEncode(MarkupEscaping.plainLine(subject), into: &link)
        link.append(contentsOf: "&body=".utf8)
        percentEncode(MarkupEscaping.plainLine(body), into: &link)
        return String(decoding: link, as: UTF8.self)
    }

    /// `text`'s UTF-8 with every byte outside `mailtoAllowed` written as `%XX`, as
    /// `addingPercentEncoding` writes it; that asked a `CharacterSet` about each character,
    /// the costliest part of a city page's links.
    private static func percentEncode(_ text: String, into link: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if mailtoAllowed.contains(byte) {
                link.append(byte)
            } else {
                link.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
    }

    /// Foundation's query characters less `&=+?#` (which would end the subject or start
    /// another field), read once from its `CharacterSet` into a set of bytes.
    private static let mailtoAllowed: ASCIISet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return ASCIISet((0..<128).map { Unicode.Scalar(UInt8($0)) }.filter { allowed.contains($0) })
    }()

    /// Links from data files are kept only when they are plain web addresses:
    /// a `javascript:` or `data:` link in `places.json` must never reach a page.
    static func webLink(_ text: String) -> String? {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil
        else { return nil }
        return url.absoluteString
    }
}
