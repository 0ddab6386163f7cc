import Foundation
import Testing
@testable import IsobarCore

/// The climate normals (README, "Compared with normal"): the day-of-year averaging against
/// hand computations, the normals file's checks, and the page's words.
@Suite struct NormalsTests {
    typealias Day = ClimateNormals.MonthDay

    /// Every day of `years`, each valued by `value` (nil: missing).
    static func series(_ years: ClosedRange<Int>, _ value: (Int, Int, Int) -> Double?) -> (times: [String], values: [Double?]) {
        var times: [String] = [], values: [Double?] = []
        for year in years {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            for month in 1...12 {
                let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
                for day in 1...length {
                    times.append(String(format: "%04d-%02d-%02d", year, month, day))
                    values.append(value(year, month, day))
                }
            }
        }
        return (times, values)
    }

    static func normals(_ series: (times: [String], values: [Double?]), window: Int) -> [Day: ClimateNormals.Normal] {
        NormalsAveraging.normals(times: series.times, highs: series.values, lows: series.values.map { $0.map { $0 - 5 } }, window: window)
    }

    /// Each day is the mean over the years; the leap years' own 29 February values are not
    /// used (by hand: 10 in 2003, 20 in 2004, so 15 everywhere, 29 February too).
    @Test func eachDayIsTheMeanOverTheYearsAndTheLeapDaysOwnValuesAreLeftOut() {
        let days = Self.normals(Self.series(2003...2004) { year, month, day in
            month == 2 && day == 29 ? 1000 : year == 2003 ? 10 : 20
        }, window: 7)
        #expect(days.count == 366)
        #expect(days[Day(month: 6, day: 15)] == .init(high: 15, low: 10))
        #expect(days[Day.leapDay] == .init(high: 15, low: 10))
    }

    /// ±2 days, circular: 31 December = 10 and 1 January = 20, every other day 0. By hand:
    /// 29 Dec (27…31 Dec) 10/5 = 2; 31 Dec (29 Dec…2 Jan) 30/5 = 6; 1 Jan (30 Dec…3 Jan)
    /// 6; 2 Jan (31 Dec…4 Jan) 6; 3 Jan (1…5 Jan) 20/5 = 4; 4 Jan (2…6 Jan) 0.
    @Test func theWindowWrapsAroundTheYearsEnd() {
        let days = Self.normals(Self.series(1991...2020) { _, month, day in
            month == 12 && day == 31 ? 10 : month == 1 && day == 1 ? 20 : 0
        }, window: 2)
        let expected: [(Day, Double)] = [(Day(month: 12, day: 28), 0), (Day(month: 12, day: 29), 2), (Day(month: 12, day: 30), 6),
                                         (Day(month: 12, day: 31), 6), (Day(month: 1, day: 1), 6), (Day(month: 1, day: 2), 6),
                                         (Day(month: 1, day: 3), 4), (Day(month: 1, day: 4), 0)]
        for (day, high) in expected {
            #expect(abs(days[day]!.high - high) < 1e-9, "\(day): \(days[day]!.high), by hand \(high)")
        }
    }

    /// 29 February is the mean of the smoothed 28 February and 1 March. ±1 day, 27 Feb = 30,
    /// 28 Feb = 10, 1 Mar = 20, other days 0. By hand: 28 Feb (27, 28 Feb, 1 Mar) 60/3 = 20;
    /// 1 Mar (28 Feb, 1, 2 Mar) 30/3 = 10; 29 Feb (20 + 10) / 2 = 15.
    @Test func the29thOfFebruaryIsTheMeanOfItsNeighboursNormals() {
        let days = Self.normals(Self.series(1991...2020) { _, month, day in
            switch (month, day) {
            case (2, 27): 30
            case (2, 28): 10
            case (3, 1): 20
            case (2, 29): -40
            default: 0
            }
        }, window: 1)
        #expect(abs(days[Day(month: 2, day: 28)]!.high - 20) < 1e-9)
        #expect(abs(days[Day(month: 3, day: 1)]!.high - 10) < 1e-9)
        #expect(abs(days[Day.leapDay]!.high - 15) < 1e-9)
        #expect(abs(days[Day.leapDay]!.low - 10) < 1e-9)
    }

    /// A missing value is left out of its day's mean, not counted as 0.
    @Test func missingValuesAreLeftOut() {
        let days = Self.normals(Self.series(1991...1993) { year, _, _ in year == 1992 ? nil : Double(year - 1990) }, window: 0)
        #expect(days[Day(month: 4, day: 10)]?.high == 2)  // (1 + 3) / 2
    }

    /// The archive's answer: only its 1991–2020 days count; one that is not 30 years is refused, naming its file.
    @Test func archiveAnswersAreCheckedAndAveraged() throws {
        let series = Self.series(1991...2020) { _, month, _ in Double(month) }
        func body(_ times: [String], _ values: [Double?]) -> Data {
            let json: [String: Any] = [
                "latitude": 51.5, "longitude": -0.12, "timezone": "Europe/London",
                "daily_units": ["time": "iso8601", "temperature_2m_max": "°C", "temperature_2m_min": "°C"],
                "daily": ["time": times, "temperature_2m_max": values.map { $0 as Any? ?? NSNull() }, "temperature_2m_min": values.map { ($0.map { $0 - 6 }) as Any? ?? NSNull() }],
            ]
            return try! JSONSerialization.data(withJSONObject: json)
        }
        let file = URL(fileURLWithPath: "/cache/london-gb/open-meteo-archive.json")
        let normals = try ArchiveNormals.normals(from: RawResponse(endpoint: .openMeteoArchive, body: body(series.times, series.values), fetchedAt: Date(), file: file))
        #expect(normals.source == "open-meteo-era5 1991-2020")
        #expect(normals.days[Day(month: 7, day: 15)] == .init(high: 7, low: 1))
        let short = RawResponse(endpoint: .openMeteoArchive, body: body(Array(series.times.prefix(400)), Array(series.values.prefix(400))), fetchedAt: Date(), file: file)
        #expect { try ArchiveNormals.normals(from: short) } throws: { error in
            let error = error as! IsobarError
            return error.path == file.path && error.message.contains("of 400 in") && error.hint?.contains("delete the file") == true
        }
    }

    // MARK: The normals file

    static let slugs: Set<String> = ["london-gb", "paris-fr"]

    @Test func aNormalsFileIsReadByCityAndDay() throws {
        let normals = try NormalsFile.parse("""
            # SAMPLE DATA
            slug,month,day,high,low
            london-gb,11,25,10.4,4.6
            london-gb,2,29,8,2.5

            paris-fr,1,1,7,2
            """, file: "/site/Data/normals.csv")
        #expect(normals["london-gb"]?.normal(onDay: "2026-11-25") == .init(high: 10.4, low: 4.6))
        #expect(normals["london-gb"]?.normal(onDay: "2028-02-29") == .init(high: 8, low: 2.5))
        #expect(normals["london-gb"]?.normal(onDay: "2026-11-26") == nil)
        #expect(normals["paris-fr"]?.source == "normals.csv")
    }

    @Test(arguments: [
        ("slug,high,low\n", 1, "header"),
        ("slug,month,day,high,low\nlondon-gb,11,25,10.4\n", 2, "5 fields"),
        ("slug,month,day,high,low\nlondon-gb,11,25,10,4\nlondon-gb,11,25,10,4\n", 3, "twice"),
        ("slug,month,day,high,low\nlondon-gb,2,30,10,4\n", 2, "not a calendar day"),
        ("slug,month,day,high,low\nlondon-gb,11,25,10°,4\n", 2, "numbers in °C"),
        ("slug,month,day,high,low\nlondon-gb,11,25,4,10\n", 2, "below the low"),
        ("# c\nslug,month,day,high,low\nlondon-gb,11,25,10,4\nlondon-gb,11,25,10,4\n", 4, "twice"),
    ])
    func aBadNormalsFileNamesTheFileTheLineAndTheFix(text: String, line: Int, message: String) {
        #expect { try NormalsFile.parse(text, file: "/site/Data/normals.csv") } throws: { error in
            let error = error as! IsobarError
            return error.location?.file == "/site/Data/normals.csv" && error.location?.line == line && error.message.contains(message)
                && error.hint?.isEmpty == false && error.description.contains("normals.csv:\(line)")
        }
    }

    /// Rows of a city not on the site are kept aside, as places.json's are (a city taken off
    /// the site must not stop its build); `isobar check` names them, a misspelling with a
    /// suggestion.
    @Test func aMisspeltSlugIsNamedWithASuggestion() throws {
        let normals = try NormalsFile.parse("slug,month,day,high,low\nlondn-gb,11,25,10,4\n", file: "/n.csv")
        #expect(normals.keys.sorted() == ["londn-gb"])
        #expect(NormalsFile.unlisted(normals, slugs: Self.slugs, file: URL(fileURLWithPath: "/n.csv"))
            == [#"/n.csv: no city in the config has the slug "londn-gb" (did you mean "london-gb"?): its normals are not shown"#])
    }

    @Test func theConfigChoosesTheSource() throws {
        let file = URL(fileURLWithPath: "/site/isobar.yml")
        let base = "base_url: https://w.example.org/\nprovider: snapshot\ncities:\n  - { name: London, country: GB }\n"
        #expect(try ConfigLoader.parse(base, file: file).normals == .off)
        #expect(try ConfigLoader.parse(base + "normals: archive\n", file: file).normals == .archive)
        #expect(try ConfigLoader.parse(base + "normals: { file: Data/normals.csv }\n", file: file).normals == .file(URL(fileURLWithPath: "/site/Data/normals.csv"), source: nil))
        let labelled = try ConfigLoader.parse(base + "normals: { file: Data/normals.csv, source: \"Met Office 1991–2020\" }\n", file: file).normals
        #expect(labelled == .file(URL(fileURLWithPath: "/site/Data/normals.csv"), source: "Met Office 1991–2020") && labelled.source(of: nil) == "Met Office 1991–2020")
        #expect(NormalsSettings.archive.source(of: ClimateNormals(source: "open-meteo-era5 1991-2020", days: [:])) == "ERA5 1991–2020, Open-Meteo" && NormalsSettings.off.source(of: nil) == nil)
        #expect { try ConfigLoader.parse(base + "normals: era5\n", file: file) } throws: { error in
            (error as! IsobarError).description.contains("normals: archive")
        }
    }

    // MARK: The page's words

    /// The fixture forecast's today with a normal `offset` °C below its high (the high the
    /// page shows), and every other day without one.
    static func model(offset: Double, units: Units = .metric, language: String = "en") throws -> (CityPageModel, String) {
        let forecast = try Fixtures.forecast()
        let today = try #require(Presenter.today(forecast))
        let high = max(today.temperatureMax, forecast.current.temperature)
        let normals = ClimateNormals(source: "test", days: [Day(key: today.day)!: .init(high: high - offset, low: 3)])
        let presenter = try Fixtures.presenter(language)
        var model = presenter.cityPage(forecast, city: .test(units: units), places: [], root: "../")
        presenter.addNormals(normals, source: "ERA5 1991–2020, Open-Meteo", forecast, city: .test(units: units), to: &model)
        return (model, today.day)
    }

    @Test func warmerColderAndAboutNormal() throws {
        let (warmer, day) = try Self.model(offset: 2)
        #expect(day == "2026-11-22")
        let date = "November 22"  // `en`'s CLDR day and month
        #expect(warmer.normals?.comparison.plain == "2° warmer than normal for \(date)")
        #expect(warmer.normals?.trend == "warmer")
        #expect(try Self.model(offset: -3).0.normals?.comparison.plain == "3° colder than normal for \(date)")
        #expect(try Self.model(offset: 0.8).0.normals?.comparison.plain == "About normal for \(date)")
        #expect(try Self.model(offset: -1.2).0.normals?.comparison.plain == "About normal for \(date)")
        #expect(try Self.model(offset: 0.8).0.normals?.difference == nil)
        // A difference converts without the offset: 2 °C is 3.6 °F.
        #expect(try Self.model(offset: 2, units: .imperial).0.normals?.comparison.plain == "4° warmer than normal for \(date)")
        #expect(try Self.model(offset: 2, language: "de").0.normals?.comparison.plain == "2° wärmer als normal für den 22. November")
    }

    @Test func eachDayWithANormalShowsItAndNoOtherDoes() throws {
        let (model, day) = try Self.model(offset: 2)
        let withNormal = model.daily.filter { $0.normal != nil }
        #expect(withNormal.count == 1 && withNormal[0].datetime == day)
        #expect(withNormal[0].normal?.text.hasPrefix("Normal ") == true && withNormal[0].normal?.text.plain.hasSuffix(" / 3°") == true)
        let page = try TemplateSet.load(from: Fixtures.templates).renderBody("city", model).text
        #expect(page.plain.contains("2° warmer than normal for") && page.contains("class=\"day-normal\""))
    }

    /// A normals file without `source:` names no source: the page's own `source` (its
    /// forecast's, "OpenWeather") is not shown in its place.
    @Test func normalsWithoutASourceNameNone() throws {
        let forecast = try Fixtures.forecast()
        let today = try #require(Presenter.today(forecast))
        let normals = ClimateNormals(source: "test", days: [Day(key: today.day)!: .init(high: 10, low: 3)])
        let presenter = try Fixtures.presenter()
        var model = presenter.cityPage(forecast, city: .test(), places: [], root: "../")
        presenter.addNormals(normals, source: nil, forecast, city: .test(), to: &model)
        #expect(model.normals != nil && model.normals?.source == nil && !model.source.isEmpty)
        let page = try TemplateSet.load(from: Fixtures.templates).renderBody("city", model).text
        #expect(page.contains("class=\"now-normal\"") && !page.contains("normal-source"), "\(page)")

        presenter.addNormals(normals, source: "My station", forecast, city: .test(), to: &model)
        let sourced = try TemplateSet.load(from: Fixtures.templates).renderBody("city", model).text
        #expect(sourced.contains("<small class=\"normal-source\">(My station)</small>"))
    }

    @Test func aCityWithoutNormalsShowsNothingOfThem() throws {
        let forecast = try Fixtures.forecast()
        let presenter = try Fixtures.presenter()
        var model = presenter.cityPage(forecast, city: .test(), places: [], root: "../")
        presenter.addNormals(nil, source: nil, forecast, city: .test(), to: &model)
        #expect(model.normals == nil && model.daily.allSatisfy { $0.normal == nil })
        let page = try TemplateSet.load(from: Fixtures.templates).renderBody("city", model).text
        #expect(!page.contains("normal") && !page.contains("Normal"))
    }
}

extension String {
    /// The text without its isolates (U+2068 … U+2069), which keep values in order on the page.
    var plain: String { replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "") }
}
