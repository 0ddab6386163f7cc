import Foundation
import Testing
@testable import IsobarCore

/// Issue 12, items 1 and 9: numbers outside what weather can be are refused where a body
/// is decoded, with the field, the value (short) and the expected range.
@Suite struct PlausibilityTests {
    static let sample = TestPaths.repository.appendingPathComponent("Samples/london-gb/onecall.json")

    /// The London sample with the first `"name": number` of `name` replaced by `value`.
    static func oneCall(_ name: String, _ value: String) throws -> RawResponse {
        let text = try String(contentsOf: sample, encoding: .utf8)
        let changed = text.replacing(try Regex("\"\(name)\":\\s*[-0-9.e]+"), maxReplacements: 1) { _ in "\"\(name)\": \(value)" }
        #expect(changed != text, "no \(name) in the sample")
        return RawResponse(endpoint: .oneCall, body: Data(changed.utf8), fetchedAt: Date())
    }

    static func message(_ units: Units, _ response: RawResponse) -> String? {
        do {
            _ = try OpenWeatherDecoder(units: units).oneCall(response, city: .test(units: units))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("temp", "1e300", Units.metric, "current.temp: 1e+300 is not a plausible temperature (expected -100…100 °C)"),
        ("temp", "283.15", Units.metric, "current.temp: 283.15 is not a plausible temperature (expected -100…100 °C)"),
        ("temp", "-9.3e18", Units.imperial, "current.temp: -9.3e+18 is not a plausible temperature (expected -148…212 °F)"),
        ("temp", "12", Units.standard, "current.temp: 12 is not a plausible temperature (expected 173.15…373.15 K)"),
        ("pressure", "-1e300", Units.metric, "current.pressure: -1e+300 is not a plausible pressure (expected 300…1200 hPa)"),
        ("humidity", "400", Units.metric, "current.humidity: 400 is not a plausible percentage (expected 0…100 %)"),
        ("uvi", "1e300", Units.metric, "current.uvi: 1e+300 is not a plausible UV index (expected 0…50)"),
        ("wind_speed", "1e400", Units.metric, "not valid JSON: Number 1e400 is out of range"),
        ("wind_speed", "1e300", Units.metric, "current.wind_speed: 1e+300 is not a plausible wind speed (expected 0…150 m/s)"),
        ("visibility", "1e300", Units.metric, "current.visibility: 1e+300 is not a plausible visibility (expected 0…1000000 m)"),
        ("dt", "0", Units.metric, "current.dt: 0 is not a plausible time (seconds since 1970) (expected 946684800…4102444800)"),
        ("timezone_offset", "9.3e18", Units.metric, "timezone_offset has the wrong type"),
    ])
    func implausibleValuesAreNamed(field: String, value: String, units: Units, expected: String) throws {
        let message = try #require(Self.message(units, try Self.oneCall(field, value)))
        #expect(message.contains(expected), "\(message)")
        #expect(message.contains("onecall.json"))
    }

    @Test func realExtremesAndAbsentSunTimesPass() throws {
        // Record cold, a hurricane, polar night's zero sunrise: weather, not errors.
        #expect(Self.message(.metric, try Self.oneCall("temp", "-89.2")) == nil)
        #expect(Self.message(.metric, try Self.oneCall("wind_gust", "113")) == nil)
        #expect(Self.message(.metric, try Self.oneCall("sunrise", "0")) == nil)
    }

    @Test func nestedAndSeriesValuesCarryTheirPath() throws {
        let daily = try #require(Self.message(.metric, try Self.oneCall("min", "1e300")))
        #expect(daily.contains("daily[0].temp.min: 1e+300 is not a plausible temperature"), "\(daily)")
        let code = try #require(Self.message(.metric, try Self.oneCall("id", "5000")))
        #expect(code.contains("current.weather[0].id: 5000 is not a plausible condition code"), "\(code)")

        let body = #"{"latitude":1,"longitude":2,"utc_offset_seconds":0,"current":{"time":1795348800,"temperature_2m":5,"weather_code":0},"hourly":{"time":[1795348800,1795352400],"temperature_2m":[5,1e300],"weather_code":[0,0]}}"#
        let response = RawResponse(endpoint: .openMeteoForecast, body: Data(body.utf8), fetchedAt: Date())
        #expect(throws: IsobarError.self) { try OpenMeteoDecoder(units: .metric, describe: { "\($0)" }).validate(response) }
        do {
            _ = try OpenMeteoDecoder(units: .metric, describe: { "\($0)" }).forecast(response, city: .test())
        } catch {
            #expect("\(error)".contains("hourly.temperature_2m[1]: 1e+300 is not a plausible temperature (expected -100…100 °C)"), "\(error)")
        }
    }

    /// The walk looks each name up once per list; an element whose members differ from the
    /// one before is still checked by its own names and parents.
    @Test(arguments: [
        (#"{"hourly":[{"dt":1795348800,"temp":5},{"dt":1795352400,"temp":7},{"dt":1795356000,"temp":1e300}]}"#, "hourly.2.temp", "temperature"),
        (#"{"list":[{"rain":{"1h":5}},{"snow":{"1h":1e300}}]}"#, "list.1.snow.1h", "precipitation"),
        (#"{"list":[{"wind":{"speed":3}},{"clouds":{"all":400}}]}"#, "list.1.clouds.all", "percentage"),
        (#"{"list":[{"temp":5,"pop":0.5},{"pop":5}]}"#, "list.1.pop", "probability"),
    ])
    func laterElementsAreCheckedByTheirOwnNames(body: String, path: String, quantity: String) throws {
        let document = try JSONValue.parse(Data(body.utf8))
        #expect(throws: DecodingError.self) { try PlausibilityRules.openWeather(units: .metric).check(document) }
        do {
            try PlausibilityRules.openWeather(units: .metric).check(document)
        } catch {
            guard case .dataCorrupted(let context) = error else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") == path)
            #expect(context.debugDescription.contains("plausible \(quantity)"), "\(context.debugDescription)")
        }
    }

    @Test func longTokensAreQuotedAsAWindow() {
        let long = String(repeating: "1", count: 3_000_000)
        let shortened = QuotedInput.shortened("not valid JSON: Number \(long) is not representable", longestWord: 40)
        #expect(shortened == "not valid JSON: Number 111111111111111111111111…(3000000 characters) is not representable")
        // Ordinary messages, long paths included, are untouched.
        let path = "/srv/weather/" + String(repeating: "deep/", count: 40) + "onecall.json: current.temp is missing"
        #expect(QuotedInput.shortened(path) == path)
        #expect(IsobarError(step: .normalize, message: long).description.count < 100)
    }

    /// Item 9 end to end: a 3,000,000-digit number in a stored response costs a line of
    /// stderr and of the report, even with `--quiet`.
    @Test func aHugeNumberInAStoredResponseIsNotCopiedIntoMessages() async throws {
        let folder = try TemporaryFolder.demoSite()
        defer { folder.cleanup() }
        let file = folder.url.appendingPathComponent("Samples/london-gb/onecall.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacing(/"temp":\s*[-0-9.]+/, maxReplacements: 1) { _ in "\"temp\": " + String(repeating: "1", count: 3_000_000) }
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try await IsobarRun.launch(["build", "--quiet", "--report", "report.json"], in: folder.url)
        #expect(run.status == 2, "\(run.stderr.prefix(500))")
        #expect(run.stderr.contains("London"), "\(run.stderr.prefix(500))")
        #expect(run.stderr.utf8.count < 2_000, "\(run.stderr.prefix(500))")
        let report = try Data(contentsOf: folder.url.appendingPathComponent("report.json"))
        #expect(report.count < 20_000)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("_site/paris-fr/index.html").path))
    }
}
