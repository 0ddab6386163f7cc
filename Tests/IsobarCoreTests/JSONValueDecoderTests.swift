import Foundation
import Testing
@testable import IsobarCore

/// `JSONValueDecoder` replaces `JSONDecoder` for API responses; it must read every document
/// the same way — values, numbers to the last bit, and the errors users see.
@Suite struct JSONValueDecoderTests {
    /// Any JSON document, decoded through all three kinds of container.
    enum AnyJSON: Decodable, Equatable {
        case null, bool(Bool), number(UInt64), string(String), array([AnyJSON]), object([String: AnyJSON])

        init(from decoder: Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let flag = try? single.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? single.decode(Double.self) {
                self = .number(number.bitPattern)  // bit for bit: same rounding as JSONDecoder's parser
            } else if let text = try? single.decode(String.self) {
                self = .string(text)
            } else if var list = try? decoder.unkeyedContainer() {
                var elements: [AnyJSON] = []
                while !list.isAtEnd { elements.append(try list.decode(AnyJSON.self)) }
                self = .array(elements)
            } else {
                self = .object(try [String: AnyJSON](from: decoder))
            }
        }
    }

    static var documents: [URL] {
        let samples = TestPaths.repository.appendingPathComponent("Samples")
        // The demo's recorded past (Samples/past, 640 bodies of one shape): its first time only.
        let pastFirst = (try? FileManager.default.contentsOfDirectory(atPath: samples.path + "/past"))?.min()
        let files = (FileManager.default.enumerator(at: samples, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []).filter { url in
            let parts = url.pathComponents.suffix(from: samples.pathComponents.count)
            return parts.first != "past" || parts.dropFirst().first == pastFirst
        }
        let fixtures = (try? FileManager.default.contentsOfDirectory(at: TestPaths.fixtures, includingPropertiesForKeys: nil)) ?? []
        return (files + fixtures).filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    @Test func readsEverySampleAndFixtureLikeJSONDecoder() throws {
        #expect(Self.documents.count >= 20)
        for url in Self.documents {
            let data = try Data(contentsOf: url)
            #expect(try JSONValueDecoder.decode(AnyJSON.self, from: data) == (try JSONDecoder().decode(AnyJSON.self, from: data)), "\(url.lastPathComponent)")
        }
    }

    @Test func numbersStringsAndEscapes() throws {
        let text = #"""
            {"a": [0, -0, 1, -1, 0.1, 0.3, 2.675, 1e3, 1.5E-7, -2.5e+2, 123456789012345678, 0.1234567890123456789,
                   9007199254740993, 1.7976931348623157e308, 5e-324, 46.49, 1016, 273.15, -12.345678],
             "s": ["plain", "tab\tand\nline", "quote \" slash \/ back \\", "\u00e9\u20AC", "\ud83c\udf27 rain", "", "ünïcödé ☔"],
             "t": true, "f": false, "n": null, "e": {}, "l": []}
            """#
        let data = Data(text.utf8)
        #expect(try JSONValueDecoder.decode(AnyJSON.self, from: data) == (try JSONDecoder().decode(AnyJSON.self, from: data)))
        struct Ints: Decodable { let a: Int; let b: Int; let c: Int? ; let d: Int? }
        let ints = try JSONValueDecoder.decode(Ints.self, from: Data(#"{"a": 200, "b": -7, "c": null}"#.utf8))
        #expect(ints.a == 200 && ints.b == -7 && ints.c == nil && ints.d == nil)
    }

    /// The parser reuses the key a member position had in the object before (a list's
    /// elements repeat their keys): a key that only starts like it, is longer, is escaped,
    /// is empty, or is not closed where the remembered one ends is read as written.
    @Test func keysAtTheSamePositionAreReadAsWritten() throws {
        let text = #"""
            [{"temp": 1, "id": 2}, {"temp": 3, "id": 4}, {"temp_max": 5, "i": 6}, {"te\u006dp": 7, "": 8},
             {"temp": 9, "": 10}, {"tem": 11, "id\"": 12}, {"temp": 13, "id": 14}, {"té": 15, "id": 16}, {"té": 17, "id": 18}]
            """#
        let data = Data(text.utf8)
        #expect(try JSONValueDecoder.decode(AnyJSON.self, from: data) == (try JSONDecoder().decode(AnyJSON.self, from: data)))
        for bad in [#"[{"ab": 1}, {"ab: 2}]"#, #"[{"ab": 1}, {"ab"#, #"[{"a\"b": 1}, {"a"b": 2}]"#, #"[{"": 1}, {"]"#] {
            #expect(throws: DecodingError.self, "\(bad)") { _ = try JSONValueDecoder.decode(AnyJSON.self, from: Data(bad.utf8)) }
        }
    }

    @Test func rejectsWhatIsNotJSON() {
        let bad = ["", "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"unterminated", "\"bad \\x escape\"",
                   "\"\\ud800 lone surrogate\"", "{\"a\":1} trailing", "[\"ctrl \u{01}\"]", "NaN"]
        for text in bad {
            #expect(throws: DecodingError.self, "\(text)") { _ = try JSONValueDecoder.decode(AnyJSON.self, from: Data(text.utf8)) }
        }
        #expect(throws: DecodingError.self) { _ = try JSONValueDecoder.decode(AnyJSON.self, from: Data([0x22, 0xFF, 0xFE, 0x22])) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: DecodingError.self) { _ = try JSONValueDecoder.decode(AnyJSON.self, from: Data(deep.utf8)) }
    }

    /// What One Call's fields would be through `Codable`, as `OneCallBody` declared them
    /// before it was read by hand (OneCallReading.swift): the oracle for the hand reader.
    enum Reference {
        struct OneCallBody: Decodable {
            let lat: Double
            let lon: Double
            let timezone: String
            let timezone_offset: Int?
            let current: Current
            let hourly: [Hourly]?
            let daily: [Daily]?
            let alerts: [Alert]?
            let minutely: [Minute]?

            struct Minute: Decodable {
                let dt: TimeInterval
                let precipitation: Double
            }

            struct Current: Decodable {
                let dt: TimeInterval
                let sunrise: TimeInterval?
                let sunset: TimeInterval?
                let temp: Double
                let feels_like: Double?
                let pressure: Double?
                let humidity: Double?
                let dew_point: Double?
                let uvi: Double?
                let clouds: Double?
                let visibility: Double?
                let wind_speed: Double?
                let wind_deg: Double?
                let wind_gust: Double?
                let rain: Precipitation?
                let snow: Precipitation?
                let weather: [OWCondition]?
            }

            struct Hourly: Decodable {
                let dt: TimeInterval
                let temp: Double
                let feels_like: Double?
                let pressure: Double?
                let humidity: Double?
                let dew_point: Double?
                let uvi: Double?
                let clouds: Double?
                let visibility: Double?
                let pop: Double?
                let wind_speed: Double?
                let wind_deg: Double?
                let wind_gust: Double?
                let rain: Precipitation?
                let snow: Precipitation?
                let weather: [OWCondition]?
            }

            struct Daily: Decodable {
                struct Temperatures: Decodable {
                    let min: Double
                    let max: Double
                }
                let dt: TimeInterval
                let sunrise: TimeInterval?
                let sunset: TimeInterval?
                let moon_phase: Double?
                let moonrise: TimeInterval?
                let moonset: TimeInterval?
                let summary: String?
                let temp: Temperatures
                let pressure: Double?
                let humidity: Double?
                let dew_point: Double?
                let clouds: Double?
                let pop: Double?
                let rain: Precipitation?
                let snow: Precipitation?
                let wind_speed: Double?
                let wind_deg: Double?
                let wind_gust: Double?
                let uvi: Double?
                let weather: [OWCondition]?
            }

            struct Alert: Decodable {
                let sender_name: String?
                let event: String
                let start: TimeInterval
                let end: TimeInterval
                let description: String?
                let tags: [String]?
            }
        }
    }

    /// Everything a value holds, without the names of its types.
    func contents(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text.replacingOccurrences(of: "IsobarCoreTests.JSONValueDecoderTests.Reference.", with: "")
            .replacingOccurrences(of: "IsobarCore.", with: "")
    }

    @Test func oneCallIsReadByHandAsCodableWouldReadIt() throws {
        let bodies = Self.documents.filter { $0.lastPathComponent.hasPrefix("onecall") }
        #expect(bodies.count >= 8)
        for url in bodies {
            let data = try Data(contentsOf: url)
            let ours = try OneCallBody(json: try JSONValueDecoder.tree(data))
            let theirs = try JSONDecoder().decode(Reference.OneCallBody.self, from: data)
            #expect(contents(ours) == contents(theirs), "\(url.lastPathComponent)")
            #expect(contents(ours).contains("hourly"))
        }
    }

    /// Air Pollution is read by hand too; `AirPollutionBody`'s `Decodable` form is the oracle.
    @Test func airPollutionIsReadByHandAsCodableWouldReadIt() throws {
        let bodies = Self.documents.filter { $0.lastPathComponent.hasPrefix("air_pollution") }
        #expect(!bodies.isEmpty)
        let sample = try String(contentsOf: bodies[0], encoding: .utf8)
        let broken = [
            sample.replacingOccurrences(of: "\"aqi\"", with: "\"index\""),
            sample.replacingOccurrences(of: "\"components\":", with: "\"components\": {\"co\": \"high\"}, \"x\":"),
            sample.replacingOccurrences(of: "\"dt\":", with: "\"dt\": null, \"x\":"),
            sample.replacingOccurrences(of: "\"list\":", with: "\"list\": {}, \"x\":"),
            "{\"list\": [1]}", "{}", "[]",
        ]
        var failures = 0
        for text in bodies.map({ try! String(contentsOf: $0, encoding: .utf8) }) + broken {
            let data = Data(text.utf8)
            let ours = Result { try AirPollutionBody(json: try JSONValueDecoder.tree(data)) }
            if case .failure = ours { failures += 1 }
            let theirs = Result { try JSONDecoder().decode(AirPollutionBody.self, from: data) }
            switch (ours, theirs) {
            case (.success(let ours), .success(let theirs)):
                // Compared field by field: `dump` would list the dictionaries in hash order.
                #expect(ours.list.map(\.main.aqi) == theirs.list.map(\.main.aqi) && ours.list.map(\.dt) == theirs.list.map(\.dt))
                #expect(ours.list.map(\.components) == theirs.list.map(\.components) && !(ours.list.first?.components?.isEmpty ?? true))
            case (.failure(let ourError), .failure(let theirError)):
                #expect(DecodingFailure.describe(ourError, data: data) == DecodingFailure.describe(theirError, data: data), "\(text.prefix(80))")
            default:
                Issue.record("hand reader and Decodable disagree on \(text.prefix(80))")
            }
        }
        #expect(broken.allSatisfy { $0 != sample } && failures == broken.count)
    }

    /// Users see `DecodingFailure.describe` of the error: the same sentence either way.
    @Test func errorsNameTheSamePathAsJSONDecoder() throws {
        let onecall = try String(contentsOf: TestPaths.fixture("onecall-quirks.json"), encoding: .utf8)
        let broken = [
            onecall.replacingOccurrences(of: "\"timezone\"", with: "\"tz\""),
            onecall.replacingOccurrences(of: "\"feels_like\":", with: "\"feels_like\":\"warm\",\"x\":"),
            onecall.replacingOccurrences(of: "\"wind_speed\":", with: "\"wind_speed\":\"fast\","),
            onecall.replacingOccurrences(of: "\"temp\":", with: "\"temp\":null,\"x\":"),
            onecall.replacingOccurrences(of: "\"id\":", with: "\"id\":\"800\",\"x\":"),
            onecall.replacingOccurrences(of: "\"weather\": [", with: "\"weather\": [null,"),
            onecall.replacingOccurrences(of: "\"weather\": [", with: "\"weather\": {\"a\": 1}, \"x\": ["),
            onecall.replacingOccurrences(of: "\"hourly\":", with: "\"hourly\": 3, \"x\":"),
            onecall.replacingOccurrences(of: "\"min\":", with: "\"minimum\":"),
            onecall.replacingOccurrences(of: "\"event\":", with: "\"event\":7,\"x\":"),
            "{\"lat\": 1}",
            "[1, 2]",
            "{\"lat\": 1,\n \"lon\": }",
        ]
        for text in broken {
            let data = Data(text.utf8)
            #expect(text != onecall || text.count < 40)
            let ours = Result { try OneCallBody(json: try JSONValueDecoder.tree(data)) }
            let theirs = Result { try JSONDecoder().decode(Reference.OneCallBody.self, from: data) }
            guard case .failure(let ourError) = ours, case .failure(let theirError) = theirs else {
                Issue.record("decoded a broken body: \(text.prefix(60))")
                continue
            }
            #expect(DecodingFailure.describe(ourError, data: data) == DecodingFailure.describe(theirError, data: data), "\(text.prefix(80))")
        }
    }
}
