import Foundation
import Testing
@testable import IsobarCore

/// Issue 54, case 1: a data time in year 9999 or 1970 is refused for every service, by the
/// one check on the decoded forecast (`PlausibleTimes`), with the field and the file named;
/// a recording is judged by its own clock, so recorded bodies still build.
@Suite struct ImpossibleTimesTests {
    /// A demo city's recorded answers (Samples/<slug>/) as fetched at the demo's clock, with
    /// the first match of `pattern` in `endpoint`'s body replaced by `replacement`.
    struct Service: Sendable, CustomTestStringConvertible {
        var name: String
        var city: CityConfig
        var endpoints: [Endpoint]
        var changed: Endpoint
        var pattern: String
        /// The data time, written as this service writes it, for a given ISO 8601 time
        /// and its seconds since 1970.
        var write: @Sendable (_ iso: String, _ seconds: Int) -> String
        var testDescription: String { name }

        func responses(dataTime iso: String? = nil, seconds: Int = 0) throws -> CityResponses {
            var responses: [Endpoint: RawResponse] = [:]
            for endpoint in endpoints {
                var response = try Fixtures.sample(city.slug, endpoint)
                if endpoint == changed, let iso {
                    let text = String(decoding: response.body, as: UTF8.self)
                    let changedText = text.replacing(try Regex(pattern), maxReplacements: 1) { _ in write(iso, seconds) }
                    #expect(changedText != text, "no \(pattern) in \(endpoint.fileName)")
                    response.body = Data(changedText.utf8)
                }
                responses[endpoint] = response
            }
            return CityResponses(city: city, responses: responses)
        }
    }

    static let services: [Service] = [
        Service(name: "OpenWeather", city: .test(), endpoints: [.oneCall], changed: .oneCall,
                pattern: #""dt": [0-9]+"#, write: { "\"dt\": \($1)" }),
        Service(name: "Open-Meteo", city: .test("Lisbon", country: "PT"), endpoints: [.openMeteoForecast], changed: .openMeteoForecast,
                pattern: #""current":\{"time":[0-9]+"#, write: { "\"current\":{\"time\":\($1)" }),
        Service(name: "MET Norway", city: MetNorwayTests.bergen, endpoints: [.metNorwayForecast], changed: .metNorwayForecast,
                pattern: #""timeseries":\[\{"time":"[^"]+""#, write: { iso, _ in "\"timeseries\":[{\"time\":\"\(iso)\"" }),
        Service(name: "NWS", city: NWSDecoderTests.denver, endpoints: [.nwsPoints, .nwsForecastHourly, .nwsForecast, .nwsGrid],
                changed: .nwsForecastHourly, pattern: #""startTime":"[^"]+","endTime":"[^"]+""#, write: { iso, seconds in
                    "\"startTime\":\"\(iso)\",\"endTime\":\"\(Date(timeIntervalSince1970: Double(seconds + 3600)).formatted(.iso8601))\"" }),
        Service(name: "WeatherKit", city: .test("Boston", country: "US", units: .imperial, timeZone: "America/New_York"), endpoints: [.weatherKit], changed: .weatherKit,
                pattern: #""asOf": *"[^"]+""#, write: { iso, _ in "\"asOf\": \"\(iso)\"" }),
    ]

    static let impossible: [(iso: String, seconds: Int)] = [("9999-11-22T12:00:00Z", 253_398_888_000), ("1970-01-01T00:00:00Z", 0)]

    static func refusal(_ fetched: CityResponses) -> String? {
        do {
            _ = try Normalizer(describe: { $0 }).forecast(from: fetched)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: services)
    func theDemoBodyIsTakenAsItCame(service: Service) throws {
        #expect(Self.refusal(try service.responses()) == nil)
    }

    @Test(arguments: services, [0, 1])
    func aDataTimeIn9999Or1970IsRefused(service: Service, which: Int) throws {
        let (iso, seconds) = Self.impossible[which]
        let live = try #require(Self.refusal(try service.responses(dataTime: iso, seconds: seconds)), "\(service.name) took \(iso)")
        #expect(live.contains("is not a plausible"), "\(live)")
        #expect(live.contains(service.changed.fileName) || live.contains(service.endpoints[0].fileName), "\(live)")
        // The same body as a recording (the snapshot provider, an imported archive): the
        // era still applies, whatever clock it was recorded at.
        var recorded = try service.responses(dataTime: iso, seconds: seconds)
        recorded.recorded = true
        let asRecorded = try #require(Self.refusal(recorded), "\(service.name) took \(iso) from a recording")
        #expect(asRecorded.contains("is not a plausible"), "\(asRecorded)")
    }

    /// A data time 15 days before the clock it was fetched at is refused live, and built
    /// from a recording, which is judged by its own clock.
    @Test func aRecordingIsJudgedByItsOwnClock() throws {
        var fetched = CityResponses(city: MetNorwayTests.bergen, responses: [
            .metNorwayForecast: RawResponse(endpoint: .metNorwayForecast, body: try Fixtures.sample("bergen-no", .metNorwayForecast).body,
                                            fetchedAt: Date(timeIntervalSince1970: 1_795_348_800 + 15 * 86_400)),
        ])
        let live = try #require(Self.refusal(fetched))
        #expect(live.contains("current.time: 2026-11-22T12:00:00Z is not a plausible data time (expected from 3 days before to 6 hours after 2026-12-07T12:00:00Z"), "\(live)")
        fetched.recorded = true
        #expect(Self.refusal(fetched) == nil)
    }

    /// A time of the forecast far from its data time (a sunrise in 2090) is named.
    @Test func anOtherTimeFarFromTheDataTimeIsNamed() throws {
        let service = Self.services[4]
        var fetched = try service.responses()
        let text = String(decoding: fetched.responses[.weatherKit]!.body, as: UTF8.self)
        let changed = text.replacing(try Regex(#""sunrise": *"[^"]+""#), maxReplacements: 1) { _ in "\"sunrise\": \"2090-11-22T06:50:00Z\"" }
        fetched.responses[.weatherKit]!.body = Data(changed.utf8)
        let message = try #require(Self.refusal(fetched))
        #expect(message.contains("sunrise: 2090-11-22T06:50:00Z is not a plausible time (expected from 2 days before to 21 days after the data time"), "\(message)")
    }
}
