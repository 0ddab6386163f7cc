import Foundation
import Testing
@testable import IsobarCore

/// `provider: openweather` through the real binary against a loopback stand-in.
@Suite(.serialized) struct OpenWeatherFetchTests {
    let onecall = "/data/3.0/onecall", weather = "/data/2.5/weather", forecast = "/data/2.5/forecast"
    let air = "/data/2.5/air_pollution", geocode = "/geo/1.0/direct"

    /// A site with the demo theme whose config points at the stand-in.
    /// `timeout` is generous by default: on a loaded machine (CI runs suites in parallel, and
    /// a stop's CI once saw a request answered after more than 15 s) a short one turns slow
    /// answers into retries and throws the request counts off.
    func site(_ server: OpenWeatherStandIn, cities: String, extra: String = "", api: String = "auto", timeout: String = "2m") throws -> TemporaryFolder {
        let folder = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        _ = try folder.write("""
            title: Test Weather
            base_url: https://weather.example.org/
            provider: openweather
            alerts: [openweather]
            openweather:
              base_url: \(server.baseURL)
              timeout: \(timeout)
              connect_timeout: 1m
              api: \(api)
            \(extra)
            cities:
            \(cities)
            """, to: "isobar.yml")
        return folder
    }

    static let twoCities = """
          - { name: London, country: GB }
          - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }
        """

    func build(_ folder: TemporaryFolder, _ arguments: [String] = [], key: String? = OpenWeatherStandIn.key,
               after seconds: TimeInterval = 0) async throws -> IsobarRun {
        var environment = IsobarRun.clock(after: seconds)
        if let key { environment["OPENWEATHER_API_KEY"] = key }
        return try await IsobarRun.launch(["build"] + arguments, in: folder.url, environment: environment)
    }

    func everythingWritten(_ folder: TemporaryFolder) throws -> String {
        var text = ""
        let manager = FileManager.default
        for relative in manager.enumerator(atPath: folder.url.path)?.compactMap({ $0 as? String }) ?? [] {
            if let data = manager.contents(atPath: folder.url.appendingPathComponent(relative).path) {
                text += String(decoding: data, as: UTF8.self)
            }
        }
        return text
    }

    @Test func fetchesGeocodesCachesAndBuilds() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let folder = try site(server, cities: Self.twoCities)
        defer { folder.cleanup() }

        let first = try await build(folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(await server.requests(geocode).count == 1, "\(first.stderr)")  // Paris has coordinates
        #expect(await server.requests(onecall).count == 2, "\(first.stderr)")
        #expect(await server.requests(air).count == 2, "\(first.stderr)")
        let call = try #require(await server.requests(onecall).first)
        #expect(call.query["exclude"] == nil)  // minutely is kept: the nowcast
        #expect(call.query["units"] == "metric")
        #expect(call.query["lang"] == "en")
        #expect(call.userAgent?.hasPrefix("isobar/") == true)
        #expect(await server.requests(geocode).first?.query["q"] == "London,GB")
        for file in ["london-gb/geocode.json", "london-gb/onecall.json", "london-gb/air_pollution.json", "paris-fr/onecall.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".isobar/cache/\(file)").path), "\(file)")
        }
        #expect(try String(contentsOf: folder.url.appendingPathComponent("_site/london-gb/index.html"), encoding: .utf8).contains("London, GB"))

        // Within max_age the cache answers: nothing is sent.
        let before = await server.requests().count
        let second = try await build(folder)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(await server.requests().count == before)

        // Offline sends nothing and needs no key.
        let offline = try await build(folder, ["--offline"], key: nil)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(await server.requests().count == before)

        // The key is nowhere: not in messages, the cache or the site.
        #expect(!(try everythingWritten(folder)).contains(OpenWeatherStandIn.key))
        #expect(!first.stderr.contains(OpenWeatherStandIn.key))
    }

    @Test func expiredCacheIsRefetchedButGeocodingIsKept() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let folder = try site(server, cities: Self.twoCities, extra: "cache: { max_age: 1s }")
        defer { folder.cleanup() }
        #expect(try await build(folder).status == 0)
        #expect(try await build(folder, after: 2).status == 0)
        #expect(await server.requests(onecall).count == 4)
        #expect(await server.requests(geocode).count == 1)
    }

    @Test func freeKeyFallsBackAfterOneCall() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        await server.inject(onecall, [.subscriptionMissing], sticky: true)
        let folder = try site(server, cities: """
              - { name: London, country: GB, lat: 51.5073, lon: -0.1276 }
              - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }
              - { name: Lod, country: IL, lat: 31.951, lon: 34.8881, timezone: Asia/Jerusalem }
            """)
        defer { folder.cleanup() }
        let run = try await build(folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(await server.requests(onecall).count == 1)
        #expect(await server.requests(weather).count == 3)
        #expect(await server.requests(forecast).count == 3)
        #expect(run.stderr.components(separatedBy: "no One Call 3.0 subscription").count == 2)  // said once
        let page = try String(contentsOf: folder.url.appendingPathComponent("_site/paris-fr/index.html"), encoding: .utf8)
        #expect(page.contains("every 3 hours"))
    }

    @Test func forcedOneCallReportsTheMissingSubscription() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        await server.inject(onecall, [.subscriptionMissing], sticky: true)
        let folder = try site(server, cities: Self.twoCities, api: "onecall3")
        defer { folder.cleanup() }
        let run = try await build(folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("no One Call 3.0 subscription"))
        #expect(await server.requests(weather).isEmpty)
    }

    @Test func retriesServerErrorsAndHonoursRetryAfter() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        await server.inject(onecall, [.status(500), .status(429, body: #"{"cod":429,"message":"Too many"}"#, retryAfter: 1)])
        let folder = try site(server, cities: "  - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }")
        defer { folder.cleanup() }
        let started = Date()
        let run = try await build(folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(await server.requests(onecall).count == 3)
        // Retry-After: 1 was waited for (a busy machine only makes this longer).
        #expect(Date().timeIntervalSince(started) >= 1.0)
    }

    @Test func retriesStopAtThreeAndTheFailureStaysLocal() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        // Every One Call request fails, and nothing is cached to fall back on.
        await server.inject(onecall, [.status(503, body: #"{"cod":503,"message":"Service Unavailable"}"#)], sticky: true)
        let folder = try site(server, cities: "  - { name: London, country: GB, lat: 51.5073, lon: -0.1276 }")
        defer { folder.cleanup() }
        let run = try await build(folder)
        #expect(run.status == 1)  // the only city failed: nothing written
        #expect(await server.requests(onecall).count == 3)
        #expect(run.stderr.contains("service unavailable after 3 attempts"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("_site").path))
    }

    @Test func badBodiesFailOnlyTheirCity() async throws {
        let cases = [
            "<html><body>Bad gateway</body></html>",  // a proxy's page
            #"{"lat": 48.85, "lon": 2.3, "timezone": "Europe/Pa"#,  // cut short
            "",  // empty
            #"{"cod": "404", "message": "city not found"}"#,  // an error dressed as 200
            #"{"lat": 48.85, "lon": 2.3, "timezone": "Europe/Paris", "timezone_offset": 3600}"#,  // no current block
        ]
        for body in cases {
            let server = try await OpenWeatherStandIn()
            await server.inject(onecall, [.body(body)])
            let folder = try site(server, cities: """
                  - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }
                  - { name: Rome, country: IT, lat: 41.8933, lon: 12.4829 }
                """)
            let run = try await build(folder)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("malformed response"), "\(run.stderr)")
            #expect(run.stderr.contains("failed: "), "\(run.stderr)")
            let built = ["paris-fr", "rome-it"].filter {
                FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("_site/\($0)/index.html").path)
            }
            #expect(built.count == 1)
            // A bad body is never cached.
            let cached = ["paris-fr", "rome-it"].filter {
                FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".isobar/cache/\($0)/onecall.json").path)
            }
            #expect(cached.count == 1)
            await server.stop()
            folder.cleanup()
        }
    }

    /// Issue 12, item 1: a finite but absurd number (1e300 °C) fails its city like a
    /// malformed body — the others publish, nothing traps — and is never cached, so the
    /// next run fetches again and succeeds.
    @Test func implausibleNumbersFailTheirCityAndAreNeverCached() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let sample = try String(contentsOf: OpenWeatherStandIn.samples.appendingPathComponent("paris-fr/onecall.json"), encoding: .utf8)
        let hostile = sample.replacing(/"temp":\s*[-0-9.]+/, maxReplacements: 1) { _ in #""temp": 1e300"# }
        #expect(hostile != sample)
        await server.inject(onecall, [.body(hostile)])
        let folder = try site(server, cities: "  - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }\n  - { name: Rome, country: IT, lat: 41.8933, lon: 12.4829 }")
        defer { folder.cleanup() }

        let first = try await build(folder)
        #expect(first.status == 2, "\(first.stderr)")
        #expect(first.stderr.contains("current.temp: 1e+300 is not a plausible temperature"), "\(first.stderr)")
        #expect(!first.stderr.contains("Fatal error"), "\(first.stderr)")
        let published = ["paris-fr", "rome-it"].filter {
            FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("_site/\($0)/index.html").path)
        }
        #expect(published.count == 1)
        let cached = ["paris-fr", "rome-it"].filter {
            FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".isobar/cache/\($0)/onecall.json").path)
        }
        #expect(cached == published)
        #expect(try String(contentsOf: folder.url.appendingPathComponent("_site/.isobar.lock"), encoding: .utf8).contains("running") == false)

        // Next run: the stand-in answers with the sample, and both cities are published.
        let second = try await build(folder)
        #expect(second.status == 0, "\(second.stderr)")
        for slug in ["paris-fr", "rome-it"] {
            #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("_site/\(slug)/index.html").path))
        }
    }

    @Test func slowResponsesTimeOut() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        await server.inject(onecall, [.delay(4)], sticky: true)
        let folder = try site(server, cities: "  - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }", timeout: "2s")
        defer { folder.cleanup() }
        let run = try await build(folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("no complete answer within 2 s"), "\(run.stderr)")
        #expect(await server.requests(onecall).count == 3)
    }

    @Test func refusedConnectionsAreReportedClearly() async throws {
        let server = try await OpenWeatherStandIn()
        let folder = try site(server, cities: "  - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }")
        defer { folder.cleanup() }
        await server.stop()  // nothing listens on the port any more
        let run = try await build(folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("service unreachable after 3 attempts"), "\(run.stderr)")
        #expect(!run.stderr.contains(OpenWeatherStandIn.key))
    }

    @Test func aBadKeyStopsTheRunWithoutLeakingIt() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let folder = try site(server, cities: """
              - { name: London, country: GB, lat: 51.5073, lon: -0.1276 }
              - { name: Paris, country: FR, lat: 48.8589, lon: 2.32 }
              - { name: Rome, country: IT, lat: 41.8933, lon: 12.4829 }
            """ + "\n  - { name: Tokyo, country: JP, lat: 35.6895, lon: 139.6917 }")
        defer { folder.cleanup() }
        let wrong = "wrong-key-0000111122223333"
        let run = try await build(folder, key: wrong)
        #expect(run.status == 1)
        #expect(run.stderr.contains("rejected the API key"))
        #expect(run.stderr.contains("OPENWEATHER_API_KEY"))
        #expect(!run.stderr.contains(wrong))
        #expect(!(try everythingWritten(folder)).contains(wrong))
        // 401 is not retried.
        #expect(await server.requests().count <= 4)
    }

    @Test func aMissingKeyIsExplained() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let folder = try site(server, cities: Self.twoCities)
        defer { folder.cleanup() }
        let run = try await build(folder, key: nil)
        #expect(run.status == 1)
        #expect(run.stderr.contains("OPENWEATHER_API_KEY is not set"))
        #expect(run.stderr.contains("export OPENWEATHER_API_KEY="))
        #expect(await server.requests().isEmpty)
        let offline = try await build(folder, ["--offline"], key: nil)
        #expect(offline.status == 1)
        #expect(offline.stderr.contains("nothing cached"), "\(offline.stderr)")
    }

    @Test func unknownCitiesAreNotFound() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        let folder = try site(server, cities: Self.twoCities + "\n  - { name: Atlantis, country: GR }")
        defer { folder.cleanup() }
        let run = try await build(folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("city not found"))
        #expect(run.stderr.contains("Atlantis"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".isobar/cache/atlantis-gr/geocode.json").path))
    }
}
