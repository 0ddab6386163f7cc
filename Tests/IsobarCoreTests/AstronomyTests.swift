import Foundation
import Testing
@testable import IsobarCore

/// Issue 32: sun and moon times computed where a provider sends none, checked against an
/// independent reference (Fixtures/astronomy/reference.json: PyEphem's full theories, set
/// up as the US Naval Observatory's tables count a rise; see make_reference.py there) for
/// places from the equator to 78° N and S, on days of clock changes, polar night and
/// midnight sun.
@Suite struct AstronomyTests {
    struct Reference: Decodable {
        var place: String
        var latitude: Double
        var longitude: Double
        var zone: String
        var day: String
        var sunrise: Int?
        var sunset: Int?
        var moonrise: Int?
        var moonset: Int?
        var moonPhase: Double
    }

    static let days: [Reference] = {
        struct File: Decodable { var days: [Reference] }
        let url = TestPaths.repository.appendingPathComponent("Tests/IsobarCoreTests/Fixtures/astronomy/reference.json")
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url)).days
    }()

    /// How far a computed time may be from the reference: the sun's low-precision position
    /// is good to 0.01° (at most 5 s off here), the moon's to 0.3° (at most 3 min, Oslo's
    /// slanting November moonrise; under a minute elsewhere). A page shows minutes.
    static func tolerance(_ body: RiseAndSet.Body) -> TimeInterval {
        body == .sun ? 15 : 240
    }

    @Test(arguments: days) func riseAndSetMatchTheReference(_ reference: Reference) throws {
        let zone = try #require(TimeZone(identifier: reference.zone))
        let hours = try #require(LocalDay.hours(of: reference.day, in: zone))
        let sun = RiseAndSet.of(.sun, during: hours, latitude: reference.latitude, longitude: reference.longitude)
        let moon = RiseAndSet.of(.moon, during: hours, latitude: reference.latitude, longitude: reference.longitude)
        let pairs: [(String, Date?, Int?, RiseAndSet.Body)] = [
            ("sunrise", sun.rise, reference.sunrise, .sun), ("sunset", sun.set, reference.sunset, .sun),
            ("moonrise", moon.rise, reference.moonrise, .moon), ("moonset", moon.set, reference.moonset, .moon),
        ]
        for (name, computed, expected, body) in pairs {
            let label = "\(reference.place) \(reference.day) \(name)"
            guard let expected else {
                #expect(computed == nil, "\(label): none in the reference, computed \(String(describing: computed))")
                continue
            }
            let time = try #require(computed, "\(label): the reference has \(expected), none computed")
            let off = abs(time.timeIntervalSince1970 - TimeInterval(expected))
            #expect(off <= Self.tolerance(body), "\(label): \(Int(off)) s from the reference")
        }
        let noon = hours.lowerBound.addingTimeInterval(hours.upperBound.timeIntervalSince(hours.lowerBound) / 2)
        let phase = LunarPhase.at(noon), distance = abs(phase - reference.moonPhase)
        #expect(min(distance, 1 - distance) < 0.002, "\(reference.place) \(reference.day) moon phase \(phase), reference \(reference.moonPhase)")
    }

    /// Polar night and midnight sun: no sun time at all, and `PolarDay` says which, from
    /// the same sun position.
    @Test func polarDaysHaveNoSunTimes() throws {
        let cases: [(String, String, Double, Double, PolarDay)] = [
            ("2026-12-15", "Europe/Oslo", 69.6492, 18.9553, .polarNight),
            ("2026-06-21", "Europe/Oslo", 69.6492, 18.9553, .midnightSun),
            ("2026-06-21", "Antarctica/McMurdo", -77.8419, 166.6863, .polarNight),
        ]
        for (day, zone, latitude, longitude, polar) in cases {
            let hours = try #require(LocalDay.hours(of: day, in: TimeZone(identifier: zone)!))
            #expect(RiseAndSet.of(.sun, during: hours, latitude: latitude, longitude: longitude) == RiseAndSet())
            #expect(PolarDay.on(hours.lowerBound.addingTimeInterval(43_200), latitude: latitude) == polar)
        }
    }

    /// A day's hours follow the clock: 23 on the spring change, 25 on the autumn one.
    @Test func localDaysFollowClockChanges() throws {
        let london = TimeZone(identifier: "Europe/London")!
        let spring = try #require(LocalDay.hours(of: "2026-03-29", in: london))
        let autumn = try #require(LocalDay.hours(of: "2026-10-25", in: london))
        #expect(spring.upperBound.timeIntervalSince(spring.lowerBound) == 23 * 3600)
        #expect(autumn.upperBound.timeIntervalSince(autumn.lowerBound) == 25 * 3600)
        #expect(spring.lowerBound == Date(timeIntervalSince1970: 1_774_742_400))  // 2026-03-29 00:00 GMT
    }

    /// What a provider sent is kept; only what it left out is computed.
    @Test func onlyMissingValuesAreComputed() throws {
        // The demo's London: eight days, each with every sun and moon time.
        var forecast = try OpenWeatherDecoder(units: .metric).oneCall(Fixtures.sample("london-gb", .oneCall), city: .test())
        let sent = forecast.daily[0]
        forecast.daily[1].moonrise = nil
        forecast.daily[1].moonset = nil
        forecast.daily[1].moonPhase = nil
        let completed = forecast.withComputedSky().daily[1]
        let hours = try #require(LocalDay.hours(of: forecast.daily[1].day, in: forecast.location.timeZone))
        let moon = RiseAndSet.of(.moon, during: hours, latitude: forecast.location.latitude, longitude: forecast.location.longitude)
        #expect(moon.rise != nil || moon.set != nil)
        #expect(forecast.withComputedSky().daily[0] == sent)
        #expect(completed.moonrise == moon.rise && completed.moonset == moon.set)
        #expect(completed.moonPhase == LunarPhase.at(hours.lowerBound.addingTimeInterval(hours.upperBound.timeIntervalSince(hours.lowerBound) / 2)))
        #expect(completed.sunrise == forecast.daily[1].sunrise && completed.sunset == forecast.daily[1].sunset)
    }
}

extension AstronomyTests.Reference: CustomTestStringConvertible {
    var testDescription: String { "\(place) \(day)" }
}
