import Foundation
import Testing
@testable import IsobarCore

/// `provider: weatherkit` through the real binary against a loopback stand-in that verifies
/// the token as Apple does (`Tests/servers/weatherkit_server.py`), with a P-256 key made
/// for the run.
@Suite(.serialized) struct WeatherKitFetchTests {
    static let cities = """
          - { name: Boston, country: US, lat: 42.3601, lon: -71.0589, timezone: America/New_York }
          - { name: Cambridge, country: US, state: MA, lat: 42.3736, lon: -71.1097, timezone: America/New_York }
        """

    static func site(_ server: WeatherKitStandIn, key: String, keyID: String = WeatherKitStandIn.keyID) throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: weatherkit
            weatherkit:
              base_url: "\(server.baseURL)"
              team_id: \(WeatherKitStandIn.team)
              service_id: \(WeatherKitStandIn.service)
              key_id: \(keyID)
              \(key)
            cities:
            \(cities)
            """, to: "isobar.yml")
        return site
    }

    /// One request per city, each with the run's one token, which the stand-in accepts;
    /// the body stored as sent; the page says where its weather is from, as Apple asks.
    @Test func buildsWithATokenTheServerVerifies() async throws {
        let server = try WeatherKitStandIn()
        defer { server.stop() }
        let site = try Self.site(server, key: "private_key_file: \"\(server.privateKey.path)\"")
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build", "--verbose", "--report", "report.json"], in: site.url, environment: WeatherKitStandIn.clock)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try String(contentsOf: site.url.appendingPathComponent("report.json"), encoding: .utf8)
        for text in [run.stderr, run.stdout, report] { #expect(!text.contains("eyJ") && !text.contains("Bearer"), "a token was printed: \(text)") }
        let sent = try server.requests()
        try #require(sent.count == 2, "\(sent)")
        #expect(sent.allSatisfy { $0.status == 200 }, "\(sent.map { $0.reason ?? "" })")
        #expect(Set(sent.map(\.token_sha256)).count == 1, "one token for the run, not one per city")
        let boston = try #require(sent.first { $0.path.hasSuffix("/42.3601/-71.0589") })
        #expect(boston.path == "/api/v1/weather/en/42.3601/-71.0589")
        #expect(boston.query["dataSets"] == "currentWeather,forecastHourly,forecastDaily,forecastNextHour,weatherAlerts")
        #expect(boston.query["timezone"] == "America/New_York" && boston.query["countryCode"] == "US")
        #expect(boston.query["hourlyEnd"] != nil)
        let stored = site.url.appendingPathComponent(".isobar/cache/boston-us/weatherkit.json")
        #expect(try Data(contentsOf: stored) == Data(contentsOf: WeatherKitStandIn.body))
        let page = try String(contentsOf: site.url.appendingPathComponent("_site/boston-us/index.html"), encoding: .utf8)
        #expect(page.contains("<a href=\"https://weatherkit.apple.com/legal-attribution.html\">\u{F8FF}\u{00A0}Weather</a>"))
        #expect(page.contains("Wind Advisory"), "the alert is on the page")
        #expect(!page.contains("BEGIN PRIVATE KEY"))

        // Offline, nothing is sent and no key is read.
        try FileManager.default.removeItem(at: server.privateKey)
        let offline = try await IsobarRun.launch(["build", "--offline"], in: site.url, environment: WeatherKitStandIn.clock)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try server.requests().count == 2)
    }

    /// A key Apple does not know (here: from the environment, another key than the
    /// server's) → 401 → a message about the key and the ids, never the key or the token.
    @Test func aWrongKeyIsRefusedWithAClearMessageThatShowsNoSecret() async throws {
        let server = try WeatherKitStandIn()
        defer { server.stop() }
        let site = try Self.site(server, key: "private_key_env: WK_TEST_KEY")
        defer { site.cleanup() }
        let pem = try String(contentsOf: server.otherKey, encoding: .utf8)
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: WeatherKitStandIn.clock.merging(["WK_TEST_KEY": pem]) { $1 })
        #expect(run.status != 0, "\(run.stderr)")
        #expect(run.stderr.contains("Apple WeatherKit refused the token (HTTP 401: NOT_ENABLED)"), "\(run.stderr)")
        #expect(run.stderr.contains("key_id \(WeatherKitStandIn.keyID), team_id \(WeatherKitStandIn.team), service_id \(WeatherKitStandIn.service)"), "\(run.stderr)")
        let sent = try server.requests()
        #expect(!sent.isEmpty && sent.allSatisfy { $0.status == 401 && $0.reason == "bad signature" }, "\(sent)")
        let keyLines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        #expect(!keyLines.isEmpty && keyLines.allSatisfy { !run.stderr.contains($0) && !run.stdout.contains($0) }, "the key was printed")
        #expect(!run.stderr.contains("eyJ"), "a token was printed")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".isobar/cache/boston-us/weatherkit.json").path))

        // A key id the server does not expect is refused just the same.
        let wrongID = try Self.site(server, key: "private_key_file: \"\(server.privateKey.path)\"", keyID: "OTHER12345")
        defer { wrongID.cleanup() }
        let again = try await IsobarRun.launch(["build"], in: wrongID.url, environment: WeatherKitStandIn.clock)
        #expect(again.status != 0 && again.stderr.contains("refused the token"), "\(again.stderr)")
        #expect(try server.requests().last?.reason?.hasPrefix("header") == true)
    }

    /// In a chain, a token Apple refuses is a failure like any other: the city comes from
    /// the next provider, and the report says which and why.
    @Test func aRefusedTokenFallsThroughToTheNextProviderOfTheChain() async throws {
        let server = try WeatherKitStandIn()
        defer { server.stop() }
        let log = OpenMeteoStandIn.Log()
        let (openMeteo, task, port) = try await OpenMeteoStandIn.serve(log)
        defer { task.cancel(); Task { await openMeteo.stop() } }
        let site = try Self.site(server, key: "private_key_file: \"\(server.otherKey.path)\"")
        defer { site.cleanup() }
        let file = site.url.appendingPathComponent("isobar.yml")
        let config = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "provider: weatherkit", with: "provider: [weatherkit, open-meteo]")
        try (config + "\nopen_meteo: { base_url: \"http://127.0.0.1:\(port)\", air_quality_url: \"http://127.0.0.1:\(port)\" }\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.requests().allSatisfy { $0.status == 401 })
        let report = try ProviderChainTests.report(site)
        let boston = try #require(report.cities.first { $0.slug == "boston-us" })
        #expect(boston.provider == "open-meteo" && boston.failed_providers == ["weatherkit"], "\(boston)")
        #expect(report.providers["weatherkit"]?.failures == 2, "\(report.providers)")
        let page = try String(contentsOf: site.url.appendingPathComponent("_site/boston-us/index.html"), encoding: .utf8)
        #expect(page.contains("Open-Meteo") && !page.contains("legal-attribution"))
    }

    /// `isobar check` refuses a config missing a piece, or a key that does not load, and
    /// passes one whose key loads.
    @Test func checkRefusesAMissingIdAndAKeyThatDoesNotLoad() async throws {
        let server = try WeatherKitStandIn()
        defer { server.stop() }
        let good = try Self.site(server, key: "private_key_file: \"\(server.privateKey.path)\"")
        defer { good.cleanup() }
        let ok = try await IsobarRun.launch(["check"], in: good.url)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try server.requests().isEmpty, "check sends nothing")

        let missing = try Self.site(server, key: "")
        defer { missing.cleanup() }
        let refused = try await IsobarRun.launch(["check"], in: missing.url)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("isobar.yml") && refused.stderr.contains("needs weatherkit.private_key_file in isobar.yml"), "\(refused.stderr)")

        let notAKey = try Self.site(server, key: "private_key_file: AuthKey.p8")
        defer { notAKey.cleanup() }
        _ = try notAKey.write("-----BEGIN PRIVATE KEY-----\nSECRETBUTNOTAKEY\n-----END PRIVATE KEY-----\n", to: "AuthKey.p8")
        let unreadable = try await IsobarRun.launch(["check"], in: notAKey.url)
        #expect(unreadable.status != 0)
        #expect(unreadable.stderr.contains("AuthKey.p8 cannot be read"), "\(unreadable.stderr)")
        #expect(!unreadable.stderr.contains("SECRETBUTNOTAKEY"))
    }
}
