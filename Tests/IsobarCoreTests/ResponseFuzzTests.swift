import Foundation
import Testing
@testable import IsobarCore

/// No body an API can send, however broken, may stop a build (issue 12): thousands of
/// mutated responses per provider go through decode → present → render in process. Each
/// must either render or fail with an `IsobarError` whose message stays short; a trap
/// (`Int(1e300)`, an index out of range) ends the test run, which is the failure.
@Suite struct ResponseFuzzTests {
    /// Values put in place of numbers (and of other values): beyond every range, beyond
    /// `Int`, beyond `Double` (1e400 parses as infinity), subnormal, negative zero, and
    /// every other JSON type, plus a huge string and nesting deeper than the parser allows.
    static let hostile: [String] = [
        "1e300", "-1e300", "9.3e18", "-9.3e18", "9223372036854775808", "1e400", "-1e400", "-0", "1e-320",
        "0", "-1", "1.5", #""NaN""#, #""12""#, "null", "true", "[]", "{}", "[1,2]", #"{"a":1}"#,
        "\"" + String(repeating: "x", count: 300_000) + "\"",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ]

    /// A token of a JSON text that a mutation can replace: a number, or a string in value
    /// position; `key` is the member it belongs to (an array's elements belong to the array's).
    struct Token {
        var range: Range<Int>
        var key: String
        var isNumber: Bool
    }

    /// The numbers and string values of a JSON text, found by a small scanner (it needs
    /// only to be right for the well-formed samples the mutations start from).
    static func tokens(_ bytes: [UInt8]) -> [Token] {
        enum Container { case object(key: String), array(key: String) }
        var stack: [Container] = []
        var tokens: [Token] = []
        var lastString = ""
        var index = 0
        func currentKey() -> String {
            switch stack.last {
            case .object(let key), .array(let key): return key
            case nil: return ""
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                lastString = String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
                var next = index
                while next < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[next]) { next += 1 }
                if next >= bytes.count || bytes[next] != UInt8(ascii: ":") {
                    tokens.append(Token(range: start..<index, key: currentKey(), isNumber: false))
                }
                continue
            case UInt8(ascii: ":"):
                if case .object = stack.last { stack[stack.count - 1] = .object(key: lastString) }
            case UInt8(ascii: "{"):
                stack.append(.object(key: currentKey()))
            case UInt8(ascii: "["):
                stack.append(.array(key: currentKey()))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index < bytes.count, "-+.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                tokens.append(Token(range: start..<index, key: currentKey(), isNumber: true))
                continue
            default:
                break
            }
            index += 1
        }
        return tokens
    }

    /// Every member of every object in a JSON text, as a path: `current.feels_like`,
    /// `hourly.*.weather` (the member of each element of an array).
    static func variables(_ bytes: [UInt8]) -> [[String]] {
        func walk(_ value: Any, _ path: [String]) -> [[String]] {
            if let object = value as? [String: Any] {
                return object.keys.sorted().flatMap { key in [path + [key]] + walk(object[key]!, path + [key]) }
            }
            if let array = value as? [Any] {
                return Array(Set(array.flatMap { walk($0, path + ["*"]) })).sorted { $0.joined(separator: ".") < $1.joined(separator: ".") }
            }
            return []
        }
        return walk(try! JSONSerialization.jsonObject(with: Data(bytes)), [])
    }

    /// The text with each path's member removed wherever it occurs.
    static func dropping(_ paths: [[String]], from bytes: [UInt8]) -> Data {
        func drop(_ value: Any, _ path: ArraySlice<String>) -> Any {
            guard let key = path.first else { return value }
            if key == "*", let array = value as? [Any] { return array.map { drop($0, path.dropFirst()) } }
            guard var object = value as? [String: Any], let member = object[key] else { return value }
            object[key] = path.count == 1 ? nil : drop(member, path.dropFirst())
            return object
        }
        var tree = try! JSONSerialization.jsonObject(with: Data(bytes))
        for path in paths { tree = drop(tree, path[...]) }
        return try! JSONSerialization.data(withJSONObject: tree)
    }

    static func replacing(_ bytes: [UInt8], _ token: Token, with text: String) -> Data {
        var copy = bytes
        copy.replaceSubrange(token.range, with: Array(text.utf8))
        return Data(copy)
    }

    /// One body of a set, and how it is mutated.
    struct Body {
        var endpoint: Endpoint
        var bytes: [UInt8]
        var tokens: [Token]

        init(_ endpoint: Endpoint, _ url: URL) throws {
            self.endpoint = endpoint
            bytes = Array(try Data(contentsOf: url))
            tokens = ResponseFuzzTests.tokens(bytes)
        }

        /// Every member name of a number, each with every hostile value, at a random one
        /// of its places.
        func sweep(_ generator: inout SeededGenerator) -> [Data] {
            let byKey = Dictionary(grouping: tokens.filter(\.isNumber), by: \.key)
            return byKey.keys.sorted().flatMap { key in
                ResponseFuzzTests.hostile.map { value in
                    ResponseFuzzTests.replacing(bytes, byKey[key]!.randomElement(using: &generator)!, with: value)
                }
            }
        }

        /// A random mutation: flipped bytes, a truncation, one to three variables dropped,
        /// or one to three values replaced.
        func mutation(_ generator: inout SeededGenerator) -> Data {
            switch Int.random(in: 0..<5, using: &generator) {
            case 4:
                let paths = ResponseFuzzTests.variables(bytes)
                return ResponseFuzzTests.dropping((0..<Int.random(in: 1...3, using: &generator)).map { _ in paths.randomElement(using: &generator)! }, from: bytes)
            case 0:
                var copy = bytes
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    copy[Int.random(in: 0..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                return Data(copy)
            case 1:
                return Data(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
            default:
                // Replace from the end so earlier ranges stay valid.
                let chosen = (0..<Int.random(in: 1...3, using: &generator)).map { _ in tokens.randomElement(using: &generator)! }
                var copy = bytes
                for token in Set(chosen.map(\.range.lowerBound)).sorted(by: >).compactMap({ start in chosen.first { $0.range.lowerBound == start } }) {
                    copy.replaceSubrange(token.range, with: Array(ResponseFuzzTests.hostile.randomElement(using: &generator)!.utf8))
                }
                return Data(copy)
            }
        }
    }

    struct Tally {
        var rendered = 0
        var refused = 0
        var total: Int { rendered + refused }
    }

    /// Decode → present → render one set of responses, as a build does for a city.
    static func exercise(_ responses: [Endpoint: Data], city: CityConfig, templates: TemplateSet, presenter: Presenter, tally: inout Tally) {
        var raw: [Endpoint: RawResponse] = [:]
        for (endpoint, body) in responses {
            raw[endpoint] = RawResponse(endpoint: endpoint, body: body, fetchedAt: Date(timeIntervalSince1970: 1_795_348_800))
        }
        let fetched = CityResponses(city: city, responses: raw)
        do {
            let forecast = try Normalizer(describe: { $0 }).forecast(from: fetched)
            let model = presenter.cityPage(forecast, city: city, places: [], root: "../")
            let card = presenter.indexCard(forecast, city: city)
            let page = try templates.renderBody("city", model).text
            let index = try templates.renderBody("index", IndexPageModel(t: [:], title: "Fuzz", cards: [card], missing: [])).text
            let json = try ForecastJSON.data(forecast, slug: city.slug)
            let feed = AlertsFeed.xml(
                title: "Fuzz", feedURL: "https://weather.example.org/alerts.xml", homeURL: "https://weather.example.org/", updated: forecast.current.time,
                items: forecast.alerts.enumerated().map { (AlertsFeed.Item(city: city.name, slug: city.slug, alert: $1, index: $0), "https://weather.example.org/x/") })
            let sitemap = Sitemap.xml([Sitemap.Entry(url: "https://weather.example.org/x/", modified: forecast.current.time)])
            // What renders is weather: no NaN or ∞, no number of 16 digits or more on a page
            // (1e300 °C written out), no 1e+18 in forecast.json: only an unchecked value
            // could produce them.
            let implausible = [(page, /NaN|∞|[0-9]{16}/), (index, /NaN|∞|[0-9]{16}/), (feed, /NaN|[0-9]{16}/), (sitemap, /NaN|[0-9]{16}/),
                               (String(decoding: json, as: UTF8.self), /NaN|[0-9]e\+?[0-9]{2}/)]
            for (text, pattern) in implausible {
                if let match = text.firstMatch(of: pattern) {
                    let start = text.index(match.range.lowerBound, offsetBy: -60, limitedBy: text.startIndex) ?? text.startIndex
                    Issue.record("implausible number rendered: …\(text[start..<match.range.upperBound])")
                }
            }
            #expect(!json.isEmpty && !page.isEmpty)
            tally.rendered += 1
        } catch let error as IsobarError {
            // Item 9: a message quotes at most a window of the input, never all of it.
            #expect(error.description.count < 5_000, "\(error.description.prefix(300))")
            tally.refused += 1
        } catch {
            Issue.record("not an IsobarError: \(error)")
        }
    }

    static func run(_ sets: [(city: CityConfig, bodies: [Body])], atLeast count: Int) throws -> Tally {
        let templates = try TemplateSet.load(from: TestPaths.repository.appendingPathComponent("Templates"))
        let presenter = try Fixtures.presenter()
        var generator = SeededGenerator(state: 12)
        var tally = Tally()
        func base(_ bodies: [Body]) -> [Endpoint: Data] {
            Dictionary(uniqueKeysWithValues: bodies.map { ($0.endpoint, Data($0.bytes)) })
        }
        // The unmutated bodies render: the harness itself works.
        for set in sets {
            exercise(base(set.bodies), city: set.city, templates: templates, presenter: presenter, tally: &tally)
            #expect(tally.rendered == tally.total, "the sample for \(set.city.name) does not render")
        }
        for set in sets {
            for body in set.bodies {
                for mutated in body.sweep(&generator) {
                    var responses = base(set.bodies)
                    responses[body.endpoint] = mutated
                    exercise(responses, city: set.city, templates: templates, presenter: presenter, tally: &tally)
                }
            }
        }
        while tally.total < count {
            let set = sets.randomElement(using: &generator)!
            let body = set.bodies.randomElement(using: &generator)!
            var responses = base(set.bodies)
            responses[body.endpoint] = body.mutation(&generator)
            var city = set.city
            city.units = Units.allCases.randomElement(using: &generator)!
            exercise(responses, city: city, templates: templates, presenter: presenter, tally: &tally)
        }
        return tally
    }

    static func sample(_ folder: String, _ file: String) -> URL {
        TestPaths.repository.appendingPathComponent("Samples/\(folder)/\(file)")
    }

    @Test func openWeatherBodiesNeverStopABuild() throws {
        let tally = try Self.run([
            (.test(), [try Body(.oneCall, Self.sample("london-gb", "onecall.json")),
                       try Body(.airPollution, Self.sample("london-gb", "air_pollution.json"))]),
            (.test("Lod", country: "IL", timeZone: "Asia/Jerusalem"),
             [try Body(.currentWeather, Self.sample("lod-il", "weather.json")),
              try Body(.fiveDayForecast, Self.sample("lod-il", "forecast.json"))]),
        ], atLeast: 2_000)
        #expect(tally.total >= 2_000)
        // Both outcomes happen: the mutations reach the renderer, and the checks refuse.
        #expect(tally.rendered > 100 && tally.refused > 1_000, "\(tally)")
    }

    @Test func openMeteoBodiesNeverStopABuild() throws {
        let tally = try Self.run([
            (.test("Oslo", country: "NO"), [try Body(.openMeteoForecast, Self.sample("oslo-no", "open-meteo-forecast.json")),
                                            try Body(.openMeteoAirQuality, Self.sample("oslo-no", "open-meteo-air-quality.json"))]),
        ], atLeast: 2_000)
        #expect(tally.total >= 2_000)
        #expect(tally.rendered > 100 && tally.refused > 1_000, "\(tally)")
    }

    /// Issue 28, item 1: a body with any one variable left out, in every block, still
    /// builds a page (what is not there is not shown); only the few a page cannot stand
    /// without may be refused.
    @Test(arguments: [
        ("london-gb", "onecall.json", Endpoint.oneCall), ("london-gb", "air_pollution.json", .airPollution),
        ("lod-il", "weather.json", .currentWeather), ("lod-il", "forecast.json", .fiveDayForecast),
        ("oslo-no", "open-meteo-forecast.json", .openMeteoForecast), ("oslo-no", "open-meteo-air-quality.json", .openMeteoAirQuality),
    ])
    func everyVariableCanBeLeftOut(folder: String, file: String, endpoint: Endpoint) throws {
        // What "now", an index card and the history stand on, and what places a value in time.
        let required: Set<String> = [
            "lat", "lon", "timezone", "current", "current.dt", "current.temp", "hourly.*.dt", "hourly.*.temp", "daily.*.dt",
            "daily.*.temp", "daily.*.temp.min", "daily.*.temp.max", "minutely.*.dt", "minutely.*.precipitation",
            "current.weather.*.id", "hourly.*.weather.*.id", "daily.*.weather.*.id", "alerts.*.event", "alerts.*.start", "alerts.*.end",
            "list", "list.*.dt", "list.*.main", "list.*.main.aqi", "list.*.main.temp", "coord", "coord.lat", "coord.lon", "main", "main.temp",
            "dt", "timezone", "weather.*.id", "list.*.weather.*.id",
            "latitude", "longitude", "utc_offset_seconds", "current.time", "current.temperature_2m",
        ]
        let folders = ["london-gb": CityConfig.test(), "lod-il": .test("Lod", country: "IL", timeZone: "Asia/Jerusalem"), "oslo-no": .test("Oslo", country: "NO")]
        let city = try #require(folders[folder])
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.sample(folder, "").path)
        var base: [Endpoint: Data] = [:]
        for name in names {
            guard let match = Endpoint.allCases.first(where: { $0.fileName == name }) else { continue }
            base[match] = try Data(contentsOf: Self.sample(folder, name))
        }
        let templates = try TemplateSet.load(from: TestPaths.repository.appendingPathComponent("Templates"))
        let presenter = try Fixtures.presenter()
        let bytes = Array(try #require(base[endpoint]))
        let paths = Self.variables(bytes)
        #expect(paths.count > 10)
        for path in paths {
            var responses = base
            responses[endpoint] = Self.dropping([path], from: bytes)
            var tally = Tally()
            Self.exercise(responses, city: city, templates: templates, presenter: presenter, tally: &tally)
            let name = path.joined(separator: ".")
            if tally.refused > 0 {
                #expect(required.contains(name), "a body without \(name) is refused")
            }
        }
    }

    /// The scanner the mutations rely on finds what it should.
    @Test func tokensAreFoundWithTheirMembers() {
        let text = #"{"a": 1, "b": [2, -3.5e2], "c": {"d": "x\"y", "e": [{"f": 4}]}}"#
        let found = Self.tokens(Array(text.utf8)).map { "\($0.key)=\(text.utf8.dropFirst($0.range.lowerBound).prefix($0.range.count).map { Character(UnicodeScalar($0)) }.map(String.init).joined())" }
        #expect(found == ["a=1", "b=2", "b=-3.5e2", "d=\"x\\\"y\"", "f=4"])
    }
}
