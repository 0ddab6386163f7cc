import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import IsobarCore

@Suite struct PresentationTests {
    @Test func temperaturesInEachUnitSystem() {
        #expect(UnitFormatter(units: .metric).temperature(9.6) == "10°")
        #expect(UnitFormatter(units: .metric).temperature(-2.4) == "\u{2212}2°")
        #expect(UnitFormatter(units: .imperial).temperature(10) == "50°")
        #expect(UnitFormatter(units: .standard).temperature(10) == "283 K")
        #expect(UnitFormatter(units: .imperial).temperatureWithUnit(0) == "32°F")
    }

    @Test func speedsDistancesAndPressure() {
        #expect(UnitFormatter(units: .metric).speed(5.1) == "5 m/s")
        #expect(UnitFormatter(units: .imperial).speed(4.4704) == "10 mph")
        #expect(UnitFormatter(units: .metric).distance(10000) == "10 km")
        #expect(UnitFormatter(units: .metric).distance(6000) == "6.0 km")
        #expect(UnitFormatter(units: .imperial).distance(16093.44) == "10 mi")
        #expect(UnitFormatter(units: .metric).pressure(1012.4) == "1012 hPa")
    }

    @Test(arguments: [
        (0.0, "N"), (11.0, "N"), (12.0, "NNE"), (45.0, "NE"), (90.0, "E"), (180.0, "S"),
        (225.0, "SW"), (270.0, "W"), (348.0, "NNW"), (349.0, "N"), (360.0, "N"), (-90.0, "W"),
    ])
    func compassPoints(degrees: Double, point: String) {
        #expect(Compass.point(for: degrees) == point)
    }

    @Test func uvAndAirQualityCategories() {
        #expect(UVCategory.of(0.4).label == "Low")
        #expect(UVCategory.of(2.6).label == "Moderate")
        #expect(UVCategory.of(7).label == "High")
        #expect(UVCategory.of(10.4).label == "Very high")
        #expect(UVCategory.of(11).label == "Extreme")
        #expect(AirQualityCategory.of(1).label == "Good")
        #expect(AirQualityCategory.of(5).key == "aqi-5")
    }

    @Test func iconsFallBackToUnknown() {
        let icons = IconCatalog(available: ["10d", "unknown"])
        #expect(icons.path(for: "10d") == "icons/10d.svg")
        #expect(icons.path(for: "99x") == "icons/unknown.svg")
        #expect(icons.path(for: "../../x") == "icons/unknown.svg")
        #expect(icons.path(for: "") == "icons/unknown.svg")
    }

    @Test func localTimesUseTheCityZone() throws {
        let date = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22 12:00 UTC
        #expect(LocalTimeFormatter(zone: TimeZone(identifier: "Asia/Tokyo")!, language: "en").time(date) == "21:00")
        #expect(LocalTimeFormatter(zone: TimeZone(identifier: "America/New_York")!, language: "en").time(date) == "07:00")
        #expect(LocalTimeFormatter(zone: TimeZone(identifier: "America/New_York")!, language: "en").iso8601(date) == "2026-11-22T07:00-05:00")
    }

    @Test func onlyWebLinksSurvive() {
        #expect(Presenter.webLink("https://en.wikipedia.org/wiki/Big_Ben") == "https://en.wikipedia.org/wiki/Big_Ben")
        #expect(Presenter.webLink("javascript:alert(1)") == nil)
        #expect(Presenter.webLink("data:text/html,hi") == nil)
        #expect(Presenter.webLink(" JavaScript:alert(1)") == nil)
    }

    /// Issue 17, item 4: a body without hourly or daily data gives a page without those
    /// sections, and a short series is not headed "48 hours".
    @Test func sectionsWithoutDataAreLeftOut() throws {
        let templates = try TemplateSet.load(from: TestPaths.repository.appendingPathComponent("Templates"))
        let bare = try OpenWeatherDecoder(units: .imperial).oneCall(TestPaths.response("onecall-imperial-minimal.json", .oneCall), city: .test(units: .imperial))
        #expect(bare.hourly.isEmpty && bare.daily.isEmpty)
        let page = try templates.renderBody("city", try Fixtures.presenter().cityPage(bare, city: .test(units: .imperial), places: [], root: "../")).text
        #expect(!page.contains("hourly-heading") && !page.contains("daily-heading") && !page.contains("<table"), "\(page)")

        var short = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        short.hourly = Array(short.hourly.prefix(2))
        let shortPage = try templates.renderBody("city", try Fixtures.presenter().cityPage(short, city: .test(), places: [], root: "../")).text
        #expect(shortPage.contains("Next 2 hours"), "\(shortPage)")
        #expect(shortPage.contains("daily-heading"))

        // A longer series (Open-Meteo's 76 hours, fetched for the history) still shows 48.
        var long = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        let first = try #require(long.hourly.first)
        long.hourly = (0..<76).map { index in
            var hour = first
            hour.time = first.time + TimeInterval(index * 3600)
            return hour
        }
        long.current.time = first.time + 45 * 60
        let longModel = try Fixtures.presenter().cityPage(long, city: .test(), places: [], root: "../")
        #expect(longModel.hourly.count == 48 && longModel.hourlyHeading == "Next 48 hours")
    }

    @Test func cityPageModelFromOneCall() throws {
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        let page = try Fixtures.presenter().cityPage(forecast, city: .test(), places: [], root: "../")
        #expect((page.now.temperature.text, page.now.temperature.value, page.now.temperature.unit) == ("10°C", "9.5", "°C"))
        #expect(page.now.measured["feelsLike"]?.text == "7°")
        #expect(page.temperatureUnit == "°C")
        #expect(page.now.description == "Light drizzle")  // owm_300 of the strings, not the API's words
        #expect(page.now.conditions == "Light drizzle and mist")  // CLDR's list
        #expect(page.now.icon?.src == "../assets/icons/09d.svg")
        #expect(page.now.wind?.direction == "SW")
        #expect(page.now.wind?.arrowRotation == "45")  // from the SW, blowing to the NE
        #expect(page.now.wind?.beaufort == "Gentle breeze")  // 5.1 m/s
        #expect(page.now.wind?.animationPeriod == "1.18s")
        #expect(page.now.high?.text == "10°")
        #expect(page.now.low?.text == "6°")
        #expect(page.now.dayLength == "8 hr, 10 min")  // CLDR's abbreviated units
        // Amounts beside the chances (issue 17): the hour's 0.35 mm, the day's 2.37 mm.
        #expect(page.hourly[0].precipitationAmount?.text == "0.4 mm" && page.daily[0].precipitationAmount?.text == "2.4 mm")
        #expect(page.now.moonPhase == "First quarter")  // 0.21 lies within 1/16 of 0.25
        #expect(page.hourly[1].icon?.src == "../assets/icons/unknown.svg")
        #expect(page.hourly[1].icon?.alt == "Mostly cloudy")
        #expect(page.hourly[0].measured["precipitationChance"]?.text == "64%")
        #expect(page.hourly[0].precipitationKind == "rain")
        #expect(page.hourly[1].precipitationKind == "rain")
        #expect(page.updated == "11:50")
        #expect(page.hasAlerts)
        #expect(!page.hasPlaces)
        #expect(page.hourlyChart.text.hasPrefix("<svg"))
        #expect(page.hourlyChart.text.contains("<desc id=\"hourly-chart-desc\">Temperature from 10° to 10°; highest chance of precipitation 64% at Sun 12:00.</desc>"))
        #expect(page.share.url == "https://weather.example.org/london-gb/")
        #expect(page.share.email == "mailto:?subject=London:%2010%C2%B0C%20%C2%B7%20Light%20drizzle&body=https://weather.example.org/london-gb/")
    }

    @Test func germanPagesUseGermanWordsAndNumbers() throws {
        let forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        let page = try Fixtures.presenter("de").cityPage(forecast, city: .test(), places: [], root: "../")
        #expect(page.now.wind?.beaufort == "Schwache Brise")
        #expect(page.now.wind?.direction == "SW")
        // The text follows the language; the value stays machine-readable for CSS and SVG.
        #expect(page.now.measured["visibility"].map { [$0.text, $0.value, $0.unit] } == ["6,0 km", "6.00", "km"])
        #expect(page.now.measured["rainLastHour"]?.text == "0,2 mm")
        #expect(page.now.moonPhase == "Erstes Viertel")
        #expect(page.updatedDate.contains("22"))
        #expect(page.t["next_days"] == "Die nächsten Tage")
        #expect(page.hourlyStep == "stündlich")
    }

    @Test func snowAtOrBelowFreezing() {
        let rain = Condition(code: 500, main: "Rain", description: "light rain", icon: "10d")
        #expect(!Presenter.precipitationIsSnow(condition: rain, celsius: 0.5))
        #expect(Presenter.precipitationIsSnow(condition: rain, celsius: 0))
        #expect(Presenter.precipitationIsSnow(condition: Condition(code: 600, main: "Snow", description: "", icon: "13d"), celsius: 2))
    }

    @Test func atmosphereCodesGetTheirOwnIcons() throws {
        let icons = IconCatalog(available: ["50d", "fog", "tornado", "unknown"])
        #expect(icons.path(for: Condition(code: 741, main: "Fog", description: "fog", icon: "50d")) == "icons/fog.svg")
        #expect(icons.path(for: Condition(code: 781, main: "Tornado", description: "tornado", icon: "50d")) == "icons/tornado.svg")
        #expect(icons.path(for: Condition(code: 701, main: "Mist", description: "mist", icon: "50d")) == "icons/50d.svg")
        // A theme without the special picture falls back to the icon ID.
        #expect(icons.path(for: Condition(code: 711, main: "Smoke", description: "smoke", icon: "50d")) == "icons/50d.svg")
        // The shipped theme has all of them.
        let shipped = IconCatalog(iconFiles: try PublicAssets.read(TestPaths.repository.appendingPathComponent("Public"), under: "assets").names(in: "icons"))
        for name in ["smoke", "haze", "dust", "fog", "ash", "squall", "tornado", "unknown"] {
            #expect(shipped.available.contains(name), "\(name).svg")
        }
        for code in ["01", "02", "03", "04", "09", "10", "11", "13", "50"] {
            #expect(shipped.available.contains(code + "d") && shipped.available.contains(code + "n"), "\(code)")
        }
    }
}

@Suite struct ScaleTests {
    @Test(arguments: [
        (0.0, 0), (0.49, 0), (0.5, 1), (1.5, 1), (1.6, 2), (3.3, 2), (3.4, 3), (5.4, 3), (5.5, 4), (7.9, 4),
        (8.0, 5), (10.8, 6), (13.9, 7), (17.2, 8), (20.8, 9), (24.5, 10), (28.5, 11), (32.6, 11), (32.7, 12), (60, 12),
    ])
    func beaufort(speed: Double, force: Int) {
        #expect(Beaufort.force(metresPerSecond: speed) == force)
    }

    @Test(arguments: [
        (0.0, 0), (0.06, 0), (0.07, 1), (0.2, 2), (0.25, 2), (0.3, 2), (0.32, 3), (0.5, 4), (0.56, 4),
        (0.6, 5), (0.75, 6), (0.9, 7), (0.94, 0), (1.0, 0),
    ])
    func moonPhases(phase: Double, index: Int) {
        #expect(MoonPhase.index(phase) == index)
    }

    @Test func moonPhaseNames() throws {
        let strings = try Fixtures.strings()
        #expect((0..<8).map { strings["moon_\($0)"] } == [
            "New moon", "Waxing crescent", "First quarter", "Waxing gibbous",
            "Full moon", "Waning gibbous", "Last quarter", "Waning crescent",
        ])
    }

    /// Placeholders are filled in one pass: a value is never read as a template itself.
    @Test func placeholdersAreFilledOnceAndOtherBracesKept() {
        let strings = Strings(table: ["summary": "{low}–{high} at {time}; {unknown} {not closed", "empty": "{}{{low}}"])
        #expect(strings.format("summary", ["low": "{high}", "high": "12°", "time": "{low}"])
            == "{high}–12° at {low}; {unknown} {not closed")
        #expect(strings.format("empty", ["low": "3"]) == "{}{3}")
        #expect(strings.format("missing_key", [:]) == "missing_key")
        // Text around and in the values in any script, as written.
        let german = Strings(table: ["title": "Wetter für {city} ☔ – {day}…{", "rtl": "מזג האוויר ב{city}"])
        #expect(german.format("title", ["city": "Köln", "day": "Mo., 23. Nov."]) == "Wetter für Köln ☔ – Mo., 23. Nov.…{")
        #expect(german.format("rtl", ["city": "תל אביב"]) == "מזג האוויר בתל אביב")
    }

    @Test func sentencesStartWithACapital() {
        #expect(Presenter.sentence("light rain") == "Light rain")
        #expect(Presenter.sentence("zzz") == "Zzz" && Presenter.sentence("Rain") == "Rain" && Presenter.sentence("") == "")
        #expect(Presenter.sentence("12 mm") == "12 mm" && Presenter.sentence("{x}") == "{x}")
        #expect(Presenter.sentence("a\u{301}guas") == "A\u{301}guas")
        #expect(Presenter.sentence("ébène") == "Ébène" && Presenter.sentence("ßa") == "SSa" && Presenter.sentence("ясно") == "Ясно")
    }

    /// Clock texts are written digit by digit; they must read as interpolation wrote them.
    @Test func clockTextsMatchTheirPlainForm() throws {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        var generator = SystemRandomNumberGenerator()
        for zoneName in ["UTC", "Asia/Kolkata", "America/St_Johns", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin"] {
            let clock = LocalTimeFormatter(zone: try #require(TimeZone(identifier: zoneName)), language: "en")
            for _ in 0..<2_000 {
                let date = Date(timeIntervalSince1970: Double.random(in: -2e9...4e9, using: &generator).rounded())
                let offset = clock.zone.secondsFromGMT(for: date)
                let f = LocalTimeFormatter.fields(date, offset: offset)
                let minutes = abs(offset) / 60
                #expect(clock.time(date) == "\(two(f.hour)):\(two(f.minute))")
                #expect(clock.iso8601(date) == "\(f.year)-\(two(f.month))-\(two(f.day))T\(two(f.hour)):\(two(f.minute))\(offset < 0 ? "-" : "+")\(two(minutes / 60)):\(two(minutes % 60))")
                #expect(clock.dayKey(date) == "\(f.year)-\(two(f.month))-\(two(f.day))")
                let later = date.addingTimeInterval(Double.random(in: 0...100_000, using: &generator).rounded())
                #expect((clock.dayNumber(date) == clock.dayNumber(later)) == (clock.dayKey(date) == clock.dayKey(later)))
                // At most 100,000 s later: two midnights, and a third where the zone skipped
                // a day (Kiritimati leapt from 30 December 1994 to 1 January 1995).
                #expect(clock.dayNumber(later) - clock.dayNumber(date) <= 3)
            }
        }
        #expect(LocalTimeFormatter.dayKey(LocalTimeFormatter.fields(Date(timeIntervalSince1970: -62_000_000_000), offset: 0)) == "5-04-19", "years before 1000 keep their plain digits")
    }

    /// SVG numbers are written from whole tenths; the text must be what `String` gave.
    @Test func svgNumbersMatchTheirPlainForm() {
        func plain(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        var generator = SystemRandomNumberGenerator()
        var values = [0, -0.0, 0.04, -0.04, 0.05, -0.05, -0.5, 1.25, -1.25, 719.99, 1e14 + 0.3, -1e14 - 0.3, 123_456.75]
        for _ in 0..<50_000 { values.append(Double.random(in: -2_000...2_000, using: &generator)) }
        for value in values where XMLText.number(value) != plain(value) {
            Issue.record("\(value): \(XMLText.number(value)) != \(plain(value))")
        }
    }

    /// What a chart interpolates: text escaped, numbers as SVG numbers, markup as it is.
    @Test func svgMarkupEscapesTextAndWritesNumbers() {
        let label = #"<b>"Hot" & 'dry'</b>"#
        let path: SVGMarkup = "M\(1.25) \(-0.04)"
        let markup: SVGMarkup = #"<text x="\#(719.99)" y="\#(12.0)" n="\#(42)" d="\#(path)">\#(label)</text>"#
        #expect(markup.text == #"<text x="720" y="12" n="42" d="M1.3 0">&lt;b&gt;&quot;Hot&quot; &amp; &#39;dry&#39;&lt;/b&gt;</text>"#)
        #expect(markup.text.contains(XMLText.escape(label)))
        var joined: SVGMarkup = "<g>"
        joined += "\("a\u{202E}b")</g>"
        #expect(joined.text == "<g>ab</g>", "a bidi override is dropped, as `XMLText.escape` drops it")
    }

    /// The share link's text is percent-encoded byte by byte: the same text as Foundation's
    /// `addingPercentEncoding` with the query characters less `&=+?#`.
    @Test func mailtoLinksEncodeAsFoundationDoes() {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        func foundation(_ text: String) -> String {
            MarkupEscaping.plainLine(text).addingPercentEncoding(withAllowedCharacters: allowed)!
        }
        var texts = ["London: 9°C · light rain", "a&b=c+d?e#f g/h:@!$'()*,;~-._", "תל אביב: ‏12 °C", "東京 😀", "tab\tline\nend\u{0}\u{202E}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                Unicode.Scalar(Bool.random(using: &generator) ? UInt32.random(in: 0...0x7F, using: &generator) : UInt32.random(in: 0...0x1F_FFF, using: &generator))
            }
            texts.append(String(String.UnicodeScalarView(scalars)))
        }
        for text in texts {
            let expected = "mailto:?subject=\(foundation(text))&body=\(foundation("https://weather.example.org/\(text)"))"
            #expect(Presenter.mailto(subject: text, body: "https://weather.example.org/\(text)") == expected, "\(text.debugDescription)")
        }
    }

    @Test func localTimesAcrossADaylightSavingChange() throws {
        // Europe/Berlin leaves summer time at 03:00 CEST on 2026-10-25 (01:00 UTC).
        let berlin = LocalTimeFormatter(zone: TimeZone(identifier: "Europe/Berlin")!, language: "en")
        let before = Date(timeIntervalSince1970: 1_792_887_600)  // 2026-10-25 00:20 UTC
        let after = before.addingTimeInterval(3600)
        #expect(berlin.time(before) == "02:20")
        #expect(berlin.time(after) == "02:20")  // the hour repeats
        #expect(berlin.iso8601(before) == "2026-10-25T02:20+02:00")
        #expect(berlin.iso8601(after) == "2026-10-25T02:20+01:00")
        // New York springs forward on 2026-03-08: 02:00 EST becomes 03:00 EDT (07:00 UTC).
        let newYork = LocalTimeFormatter(zone: TimeZone(identifier: "America/New_York")!, language: "en")
        let spring = Date(timeIntervalSince1970: 1_772_953_200)  // 2026-03-08 07:00 UTC
        #expect(newYork.time(spring.addingTimeInterval(-60)) == "01:59")
        #expect(newYork.time(spring) == "03:00")
        // Local days follow the zone, not UTC.
        #expect(LocalDay.key(for: spring.addingTimeInterval(-8 * 3600), in: TimeZone(identifier: "America/New_York")!) == "2026-03-07")
    }

    @Test func unitConversionsAreExact() {
        #expect(UnitFormatter(units: .imperial).temperatureValue(100) == 212)
        #expect(UnitFormatter(units: .imperial).temperatureValue(-40) == -40)
        #expect(abs(UnitFormatter(units: .standard).temperatureValue(0) - 273.15) < 1e-9)
        #expect(UnitFormatter(units: .imperial).precipitation(25.4) == "1.00 in")
        #expect(UnitFormatter(units: .imperial).pressure(1013.25) == "29.92 inHg")
        #expect(UnitFormatter(units: .standard).speed(3) == "3 m/s")
        #expect(UnitFormatter(units: .standard).distance(12000) == "12 km")
    }
}

@Suite struct GraphicsTests {
    let zone = TimeZone(identifier: "Asia/Jerusalem")!

    func chart(stepHours: Int, count: Int, start: TimeInterval) -> String {
        var points: [HourlyChart.Point] = []
        for index in 0..<count {
            let time = Date(timeIntervalSince1970: start + Double(index * stepHours * 3600))
            let temperature = 15.0 + Double(index % 5)
            points.append(HourlyChart.Point(time: time, temperature: temperature, precipitationChance: index == 3 ? 0.7 : 0))
        }
        return HourlyChart(
            points: points, clock: LocalTimeFormatter(zone: zone, language: "en"),
            temperatureLabel: { "\(Int($0))°" }, title: "Chart <title>", summary: "Summary & more").svg(id: "c").text
    }

    @Test func threeHourlyStepsGetTimeLabelsAndDayChanges() throws {
        // 2026-11-22 15:00 UTC = 17:00 in Lod; 3-hourly steps never land on 00/06/12/18.
        let both = chart(stepHours: 3, count: 16, start: 1_795_359_600)
        let svg = try #require(both.components(separatedBy: #"<svg class="chart chart-narrow""#).first)
        for label in [">17:00<", ">23:00<", ">05:00<", ">11:00<"] { #expect(svg.contains(label), "\(label)") }
        #expect(svg.components(separatedBy: "class=\"chart-day\"").count - 1 == 2)
        #expect(svg.contains(">Mon<") && svg.contains(">Tue<"))
        #expect(svg.contains("<title id=\"c-title\">Chart &lt;title&gt;</title>"))
        #expect(svg.contains("<desc id=\"c-desc\">Summary &amp; more</desc>"))
        #expect(svg.components(separatedBy: "class=\"chart-pop\"").count - 1 == 1)
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    /// The phone's drawing: the same points and title, its own ids, a label every 12 hours.
    @Test func thePhonesChartIsLabelledEveryTwelveHours() throws {
        let parts = chart(stepHours: 1, count: 48, start: 1_795_348_800).components(separatedBy: #"<svg class="chart chart-narrow""#)
        #expect(parts.count == 2)
        let narrow = try #require(parts.last)
        #expect(narrow.contains(#"viewBox="0 0 320 200""#))
        #expect(narrow.contains("<title id=\"c-narrow-title\">Chart &lt;title&gt;</title>"))
        for label in [">00:00<", ">12:00<"] { #expect(narrow.contains(label), "\(label)") }
        for label in [">18:00<", ">06:00<"] { #expect(!narrow.contains(label), "\(label)") }
    }

    @Test func hourlyStepsAreLabelledEverySixHours() {
        let svg = chart(stepHours: 1, count: 48, start: 1_795_348_800)  // 14:00 local
        for label in [">18:00<", ">00:00<", ">06:00<", ">12:00<"] { #expect(svg.contains(label), "\(label)") }
        #expect(!svg.contains(">15:00<"))
    }

    /// Crowded pins keep their numbers; a label that would cross another label, a pin
    /// or the edge is left out (the list below names the place), never drawn over.
    @Test func mapLabelsNeverOverlap() {
        let frame = PlacesMap.frame
        // Eight places in a ring, and three stacked on one spot.
        var points: [(x: Double, y: Double)] = (0..<8).map { step in
            let angle = Double(step) * Double.pi / 4
            return (x: 170 + 90 * cos(angle), y: 130 + 90 * sin(angle))
        }
        points += [(x: 170, y: 130), (x: 171, y: 131), (x: 172, y: 132)]
        let names = points.indices.map { "Place \($0)" }
        let labels = PlacesMap.labels(points, names: names, frame)
        var boxes: [PlacesMap.Box] = points.map { PlacesMap.Box(minX: $0.x - frame.pinRadius, minY: $0.y - frame.pinRadius, maxX: $0.x + frame.pinRadius, maxY: $0.y + frame.pinRadius) }
        for (index, label) in labels.enumerated() {
            guard let label else { continue }
            let width = Double(names[index].count) * frame.labelSize * 0.6, half = frame.labelSize * 0.65
            let minX = label.anchor == "start" ? label.x : label.anchor == "end" ? label.x - width : label.x - width / 2
            let box = PlacesMap.Box(minX: minX, minY: label.y - half, maxX: minX + width, maxY: label.y + half)
            #expect(box.minX >= 0 && box.maxX <= frame.width, "label \(index) leaves the frame")
            let crossed = boxes.enumerated().contains { (offset: Int, other: PlacesMap.Box) in offset != index && other.overlaps(box) }
            #expect(!crossed, "label \(index) overlaps")
            boxes.append(box)
        }
        #expect(labels.contains { $0 != nil })
        // So many long names cannot all fit: some are left out, never drawn over another.
        let long = PlacesMap.labels(points, names: points.indices.map { "A place with a long name \($0)" }, frame)
        #expect(long.contains { $0 == nil } && long.contains { $0 != nil })
    }

    @Test func mapPinsAreEscapedLinks() {
        let map = PlacesMap(pins: [
            .init(number: 1, name: "Tower & <Bridge>", latitude: 51.508, longitude: -0.076, anchor: "place-1"),
            .init(number: 2, name: "St Paul's", latitude: 51.5138, longitude: -0.0984, anchor: "place-2"),
        ], title: "Map").svg(id: "m").text
        #expect(map.contains(">Tower &amp; &lt;Bridge&gt;<"))
        #expect(map.contains("St Paul&#39;s"))
        #expect(map.contains("href=\"#place-2\""))
        #expect(XMLParser(data: Data(map.utf8)).parse())
        #expect(PlacesMap(pins: [], title: "Map").svg(id: "m") == "")
    }
}
