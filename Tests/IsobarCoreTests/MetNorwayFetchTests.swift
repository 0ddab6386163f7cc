import Foundation
import Testing
@testable import IsobarCore

/// `provider: met-norway`'s requests and rules, without a server.
@Suite struct MetNorwayRequestTests {
    @Test(arguments: [(60.39126, "60.3913"), (5.32214, "5.3221"), (10.75, "10.75"), (5.0, "5"), (-9.13931, "-9.1393"), (-0.00001, "0"), (0.0, "0")])
    func coordinatesHaveAtMostFourDecimalsAndNoTrailingZeros(value: Double, expected: String) {
        #expect(MetNorwayRequests.coordinate(value) == expected)
    }

    @Test func theRequestIdentifiesTheSiteAndRepeatsLastModifiedVerbatim() throws {
        let requests = MetNorwayRequests(baseURL: URL(string: "https://api.met.no/weatherapi/locationforecast/2.0/")!, contact: "ops@example.org")
        var city = CityConfig.test("Bergen", country: "NO")
        city.latitude = 60.39126
        city.longitude = 5.32214
        let first = requests.request(for: city, lastModified: nil)
        #expect(first.url.absoluteString == "https://api.met.no/weatherapi/locationforecast/2.0/complete?lat=60.3913&lon=5.3221")
        #expect(first.headers["User-Agent"] == "isobar/\(Version.isobar) ops@example.org")
        #expect(first.headers["If-Modified-Since"] == nil)
        #expect(first.keptHeaders == ["Last-Modified", "Expires"])
        let again = requests.request(for: city, lastModified: "Thu, 26 Nov 2026 09:12:04 GMT")
        #expect(again.headers["If-Modified-Since"] == "Thu, 26 Nov 2026 09:12:04 GMT")
    }

    /// MET's terms: no automatic requests at the whole hour. Only a run starting in an
    /// hour's first minute waits, until between one and three minutes past.
    @Test func onlyTheFirstMinuteOfAnHourWaits() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Kolkata"))  // a half-hour zone: its own whole hours count
        let hour = try Date("2026-11-26T12:00:00+05:30", strategy: .iso8601)
        #expect(OffTheHour.delay(at: hour, random: 0, calendar: calendar) == 60)
        #expect(OffTheHour.delay(at: hour.addingTimeInterval(20), random: 0.5, calendar: calendar) == 100)
        #expect(OffTheHour.delay(at: hour.addingTimeInterval(59), random: 1, calendar: calendar) == 121)
        #expect(OffTheHour.delay(at: hour.addingTimeInterval(60), random: 0.5, calendar: calendar) == 0)
        #expect(OffTheHour.delay(at: hour.addingTimeInterval(-1), random: 0.5, calendar: calendar) == 0)
        #expect(OffTheHour.delay(at: hour.addingTimeInterval(30 * 60), random: 0.5, calendar: calendar) == 0, "UTC's whole hour is not this zone's")
    }

    @Test func expiresIsReadAsAnHTTPDate() {
        #expect(CacheHeaders(lastModified: nil, expires: "Thu, 26 Nov 2026 18:05:31 GMT").expiry == Date(timeIntervalSince1970: 1_795_716_331))
        #expect(CacheHeaders(lastModified: nil, expires: "0").expiry == nil)
    }

    @Test func theContactIsOneLineNamingAnAddress() throws {
        let base = "base_url: https://w.example.org/\nprovider: met-norway\ncities: [{ name: Bergen, country: \"NO\", timezone: Europe/Oslo }]\n"
        let file = URL(fileURLWithPath: "/tmp/isobar.yml")
        let config = try ConfigLoader.parse(base + "contact: ops@example.org\nmet_norway: { contact: https://weather.example.org/ }\n", file: file)
        #expect(config.contact(for: .metNorway) == "https://weather.example.org/")
        #expect(config.metNorway.baseURL.absoluteString == "https://api.met.no/weatherapi/locationforecast/2.0")
        for (contact, expected) in [("ops example", "holds a space"), ("nobody", "neither an e-mail nor a web address")] {
            #expect(throws: IsobarError.self) { try ConfigLoader.parse(base + "contact: \(contact)\n", file: file) }
            do { _ = try ConfigLoader.parse(base + "contact: \(contact)\n", file: file) } catch { #expect("\(error)".contains(expected), "\(error)") }
        }
        do {
            _ = try ConfigLoader.parse(base, file: file)
            Issue.record("a met-norway site without a contact was accepted")
        } catch {
            #expect("\(error)".contains("met-norway needs a contact") && "\(error)".contains("add `contact: you@example.org`"), "\(error)")
            #expect("\(error)".contains("isobar.yml"), "\(error)")
        }
    }
}

/// `provider: met-norway` through the real binary against a loopback stand-in that checks
/// MET's terms (`Tests/servers/met_norway_server.py`).
@Suite(.serialized) struct MetNorwayFetchTests {
    static func site(_ server: MetNorwayStandIn, contact: String? = "ops@example.org", cities: String? = nil) throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        // max_age 0s: only MET's `Expires` keeps a response.
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: met-norway
            \(contact.map { "contact: \($0)" } ?? "")
            met_norway: { base_url: "\(server.baseURL)" }
            alerts: off
            cache: { max_age: 0s }
            cities:
            \(cities ?? "  - { name: Bergen, country: \"NO\", lat: 60.39126, lon: 5.32214, timezone: Europe/Oslo }")
            """, to: "isobar.yml")
        return site
    }

    @Test func fetchesOnceWaitsForExpiresThenAsksIfModified() async throws {
        // On the real clock, the stand-in's `Expires` being the real one: its body is live now.
        let server = try MetNorwayStandIn(mode: "live", expiresIn: 15)
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let realClock = ["SOURCE_DATE_EPOCH": ""]
        let first = try await IsobarRun.launch(["build"], in: site.url, environment: realClock)
        #expect(first.status == 0, "\(first.stderr)")
        let sent = try server.requests()
        try #require(sent.count == 1)
        #expect(sent[0].status == 200)
        #expect(sent[0].user_agent == "isobar/\(Version.isobar) ops@example.org")
        #expect(sent[0].query == ["lat": "60.3913", "lon": "5.3221"])
        #expect(sent[0].accept_encoding?.contains("gzip") == true)
        // Stored as sent (the stand-in gzips it), its headers beside it.
        let folder = site.url.appendingPathComponent(".isobar/cache/bergen-no")
        #expect(try Data(contentsOf: folder.appendingPathComponent("met-norway-forecast.json")) == Data(contentsOf: server.liveBody))
        let headers = try JSONDecoder().decode(CacheHeaders.self, from: Data(contentsOf: folder.appendingPathComponent("met-norway-forecast.headers.json")))
        #expect(headers == CacheHeaders(lastModified: MetNorwayStandIn.lastModified, expires: sent[0].expires))
        let expiry = try #require(headers.expiry)

        let second = try await IsobarRun.launch(["build"], in: site.url, environment: realClock)
        #expect(second.status == 0, "\(second.stderr)")
        // On a busy machine the first build may outlast the 15 s: then the second asks too.
        let afterSecond = try server.requests().count
        if Date() < expiry { #expect(afterSecond == 1, "a build before Expires sends nothing") }

        let page = site.url.appendingPathComponent("_site/bergen-no/index.html")
        try FileManager.default.removeItem(at: page)
        // The `Expires` stored now: the second build's, when it asked.
        let current = try JSONDecoder().decode(CacheHeaders.self, from: Data(contentsOf: folder.appendingPathComponent("met-norway-forecast.headers.json")))
        let due = try #require(current.expiry)
        while Date() < due.addingTimeInterval(1) { try await Task.sleep(for: .milliseconds(200)) }
        let third = try await IsobarRun.launch(["build"], in: site.url, environment: realClock)
        #expect(third.status == 0, "\(third.stderr)")
        let all = try server.requests()
        #expect(all.count == afterSecond + 1)
        #expect(all.last?.if_modified_since == MetNorwayStandIn.lastModified)
        #expect(all.last?.status == 304)
        #expect(all.allSatisfy { !$0.early }, "a request went before the Expires MET sent")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("MET Norway"), "rebuilt from the stored body")
        let renewed = try JSONDecoder().decode(CacheHeaders.self, from: Data(contentsOf: folder.appendingPathComponent("met-norway-forecast.headers.json")))
        #expect(renewed.expires == all.last?.expires && renewed.lastModified == MetNorwayStandIn.lastModified)
    }

    /// When that geocoder cannot be reached, the message names the service asked, not MET.
    @Test func aGeocoderThatCannotBeReachedIsNamedForItsService() async throws {
        let server = try MetNorwayStandIn()
        defer { server.stop() }
        let site = try Self.site(server, cities: "  - { name: Oslo, country: \"NO\", timezone: Europe/Oslo }")
        defer { site.cleanup() }
        let config = try String(contentsOf: site.url.appendingPathComponent("isobar.yml"), encoding: .utf8)
        let closed = try SSHServer.freePort()
        try (config + "\nopen_meteo: { geocoding_url: \"http://127.0.0.1:\(closed)\" }\n").write(to: site.url.appendingPathComponent("isobar.yml"), atomically: true, encoding: .utf8)
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("open-meteo geocoding /v1/search: service unreachable"), "\(run.stderr)")
        #expect(try server.requests().isEmpty)
    }

    /// MET has no geocoder: a city without `lat`/`lon` is located by Open-Meteo's, as with
    /// `provider: open-meteo`, and MET is asked at the answer's coordinates, rounded.
    /// Offline, the stored answers serve and nothing is sent.
    @Test func aCityWithoutCoordinatesIsLocatedByOpenMeteo() async throws {
        let server = try MetNorwayStandIn()
        defer { server.stop() }
        let geocoder = OpenMeteoStandIn.Log()
        let (openMeteo, task, port) = try await OpenMeteoStandIn.serve(geocoder)
        defer { task.cancel(); Task { await openMeteo.stop() } }
        let site = try Self.site(server, cities: "  - { name: Oslo, country: \"NO\", timezone: Europe/Oslo }")
        defer { site.cleanup() }
        let config = try String(contentsOf: site.url.appendingPathComponent("isobar.yml"), encoding: .utf8)
        try (config + "\nopen_meteo: { geocoding_url: \"http://127.0.0.1:\(port)\" }\n").write(to: site.url.appendingPathComponent("isobar.yml"), atomically: true, encoding: .utf8)
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(await geocoder.count("/v1/search") == 1)
        let sent = try server.requests()
        #expect(sent.count == 1 && sent[0].status == 200)
        let places = try OpenMeteoDecoder(units: .metric, describe: { "\($0)" }).geocode(Fixtures.sample("oslo-no", .openMeteoGeocode))
        let answer = try #require(places.first { $0.country.uppercased() == "NO" })
        #expect(sent.first?.query == ["lat": MetNorwayRequests.coordinate(answer.lat), "lon": MetNorwayRequests.coordinate(answer.lon)])
        let offline = try await IsobarRun.launch(["build", "--offline"], in: site.url)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try server.requests().count == 1)
        #expect(await geocoder.count() == 1)
    }

    @Test func aDeprecatedProductBuildsButWarnsOnce() async throws {
        let server = try MetNorwayStandIn(mode: "deprecated")
        defer { server.stop() }
        let site = try Self.site(server, cities: """
              - { name: Bergen, country: "NO", lat: 60.3913, lon: 5.3221, timezone: Europe/Oslo }
              - { name: Oslo, country: "NO", lat: 59.9127, lon: 10.7461, timezone: Europe/Oslo }
            """)
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.requests().map(\.status) == [203, 203])
        #expect(run.stderr.components(separatedBy: "HTTP 203").count == 2, "once per run: \(run.stderr)")
        #expect(run.stderr.contains("deprecated"))
    }

    @Test(arguments: [("forbidden", 1, "HTTP 403 Forbidden"), ("throttle", 3, "HTTP 429 Too Many Requests")])
    func refusalsSayWhy(mode: String, attempts: Int, expected: String) async throws {
        let server = try MetNorwayStandIn(mode: mode)
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(run.stderr.contains(mode == "forbidden" ? "User-Agent \"isobar/\(Version.isobar) ops@example.org\"" : "lower openweather.requests_per_minute"),
                "\(run.stderr)")
        #expect(try server.requests().count == attempts, "403 is not retried; 429 is, as for every provider")
    }

    @Test func checkAndBuildRefuseASiteWithoutContactOrZone() async throws {
        let server = try MetNorwayStandIn()
        defer { server.stop() }
        let site = try Self.site(server, contact: nil)
        defer { site.cleanup() }
        for command in ["check", "build"] {
            let run = try await IsobarRun.launch([command], in: site.url)
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("isobar.yml") && run.stderr.contains("add `contact: you@example.org`"), "\(command): \(run.stderr)")
        }
        let zoneless = try Self.site(server, cities: "  - { name: Bergen, country: \"NO\", lat: 60.3913, lon: 5.3221 }")
        defer { zoneless.cleanup() }
        let checked = try await IsobarRun.launch(["check"], in: zoneless.url)
        #expect(checked.status == 1, "\(checked.stderr)")
        #expect(checked.stderr.contains("Bergen (NO) has no `timezone:`") && checked.stderr.contains("`timezone: Europe/Oslo`, NO's only zone"),
                "\(checked.stderr)")
        #expect(try server.requests().isEmpty)
    }
}
