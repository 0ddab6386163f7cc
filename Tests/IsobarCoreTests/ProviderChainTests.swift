import Foundation
import Testing
@testable import IsobarCore

/// `provider: [met-norway, open-meteo]`: the real binary against MET Norway's stand-in
/// (`Tests/servers/met_norway_server.py`, made to fail in each way a provider fails) and
/// Open-Meteo's; each city from the first provider that answers.
@Suite(.serialized) struct ProviderChainTests {
    struct Report: Decodable {
        struct City: Decodable {
            var slug: String
            var status: String
            var provider: String?
            var failed_providers: [String]?
        }
        struct Provider: Decodable, Equatable {
            var requests: Int
            var answers: Int
            var failures: Int
            var fallbacks: Int
        }
        struct Requests: Decodable {
            /// API path → outcome (`sent`, `ok`, `network`, `http_NNN`) → count.
            var by_endpoint: [String: [String: Int]]
        }
        var cities: [City]
        var providers: [String: Provider]
        var requests: Requests
    }

    static let oslo = "  - { name: Oslo, country: \"NO\", lat: 59.9127, lon: 10.7461, timezone: Europe/Oslo }"

    static func site(metNorway: MetNorwayStandIn, openMeteoPort: UInt16, cities: String = oslo, metNorwayLimit: String = "") throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        let openMeteo = "http://127.0.0.1:\(openMeteoPort)"
        _ = try site.write("""
            base_url: https://w.example.org/
            contact: ops@example.org
            provider: [met-norway, open-meteo]
            met_norway: { base_url: "\(metNorway.baseURL)"\(metNorwayLimit) }
            open_meteo: { base_url: "\(openMeteo)", air_quality_url: "\(openMeteo)", geocoding_url: "\(openMeteo)" }
            alerts: off
            cache: { max_age: 0s }
            cities:
            \(cities)
            """, to: "isobar.yml")
        return site
    }

    /// MET Norway's stand-in in `mode`, Open-Meteo's, and a site whose chain uses them.
    static func withSite(mode: String = "ok", cities: String = oslo, metNorwayLimit: String = "",
                         _ body: (TemporaryFolder, MetNorwayStandIn, OpenMeteoStandIn.Log) async throws -> Void) async throws {
        let metNorway = try MetNorwayStandIn(mode: mode)
        defer { metNorway.stop() }
        let log = OpenMeteoStandIn.Log()
        let (openMeteo, task, port) = try await OpenMeteoStandIn.serve(log)
        defer { task.cancel(); Task { await openMeteo.stop() } }
        let site = try Self.site(metNorway: metNorway, openMeteoPort: port, cities: cities, metNorwayLimit: metNorwayLimit)
        defer { site.cleanup() }
        try await body(site, metNorway, log)
    }

    static func report(_ site: TemporaryFolder) throws -> Report {
        try JSONDecoder().decode(Report.self, from: Data(contentsOf: site.url.appendingPathComponent("report.json")))
    }

    static func page(_ site: TemporaryFolder, _ slug: String = "oslo-no") throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("_site/\(slug)/index.html"), encoding: .utf8)
    }

    /// The footer's "Weather data" credits, as the page shows them.
    static func credits(_ page: String) -> String {
        guard let start = page.range(of: "<footer"), let end = page.range(of: "</footer>", range: start.upperBound..<page.endIndex) else { return "" }
        return String(page[start.lowerBound..<end.upperBound])
    }

    @Test func theFirstProviderThatAnswersIsUsed() async throws {
        try await Self.withSite { site, metNorway, log in
            let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try metNorway.requests().count == 1)
            #expect(await log.count() == 0, "the second provider is not asked while the first answers")
            let footer = Self.credits(try Self.page(site))
            #expect(footer.contains("MET Norway") && !footer.contains("Open-Meteo"), "\(footer)")
            let report = try Self.report(site)
            #expect(report.cities.first?.provider == "met-norway" && report.cities.first?.failed_providers == nil)
            #expect(report.providers["met-norway"] == .init(requests: 1, answers: 1, failures: 0, fallbacks: 0))
            #expect(report.providers["open-meteo"] == nil)

            let check = try await IsobarRun.launch(["check"], in: site.url)
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stdout.contains("providers: met-norway → open-meteo (each city from the first that answers)"), "\(check.stdout)")
        }
    }

    /// A server error, a missing product, a body cut short, an implausible one and a
    /// deprecation notice each hand the city to Open-Meteo; the page, the log and the
    /// report say so, and nothing from the failure is cached.
    @Test(arguments: [("unavailable", "HTTP 500"), ("missing", "HTTP 404"), ("malformed", "malformed response"),
                      ("implausible", "612"), ("deprecated", "HTTP 203")])
    func aFailingProviderFallsThroughToTheNext(mode: String, said: String) async throws {
        try await Self.withSite(mode: mode) { site, metNorway, log in
            let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
            #expect(run.status == 0, "a fall-through is not a failure: \(run.stderr)")
            #expect(run.stderr.contains("Oslo: met-norway:") && run.stderr.contains(said) && run.stderr.contains("using open-meteo instead of met-norway"),
                    "\(run.stderr)")
            #expect(await log.count("/v1/forecast") == 1)
            let footer = Self.credits(try Self.page(site))
            #expect(footer.contains("Open-Meteo.com") && !footer.contains("MET Norway"), "\(footer)")
            let report = try Self.report(site)
            #expect(report.cities.first?.status == "fresh")
            #expect(report.cities.first?.provider == "open-meteo" && report.cities.first?.failed_providers == ["met-norway"])
            let metRequests = try metNorway.requests().count
            #expect(report.providers["met-norway"] == .init(requests: metRequests, answers: 0, failures: 1, fallbacks: 0))
            // Forecast and air quality, each answered once. A retry counts as a request: on a
            // loaded machine a loopback connection to the stand-in was once dropped and sent
            // again, so each request beyond the two must be one that ended without an answer.
            let openMeteo = ["/v1/forecast", "/v1/air-quality"].map { report.requests.by_endpoint[$0] ?? [:] }
            let retried = openMeteo.reduce(0) { $0 + ($1["sent"] ?? 0) - ($1["ok"] ?? 0) }
            #expect(openMeteo.allSatisfy { $0["ok"] == 1 }, "\(report.requests.by_endpoint)\n\(run.stderr)")
            #expect(report.providers["open-meteo"] == .init(requests: 2 + retried, answers: 1, failures: 0, fallbacks: 1),
                    "forecast and air quality: \(report.requests.by_endpoint)\n\(run.stderr)")
            let cached = site.url.appendingPathComponent(".isobar/cache/oslo-no/met-norway-forecast.json")
            // A 203's body is good data, kept as the last resort; a failure's never is.
            #expect(FileManager.default.fileExists(atPath: cached.path) == (mode == "deprecated"))
        }
    }

    /// A provider whose call budget is spent refuses the request before it is sent; the
    /// city falls through to the next, and the budget's plan holds no city of a chain back.
    @Test func aProviderOverItsBudgetFallsThrough() async throws {
        let cities = Self.oslo + "\n  - { name: Bergen, country: \"NO\", lat: 60.3913, lon: 5.3221, timezone: Europe/Oslo }"
        try await Self.withSite(cities: cities, metNorwayLimit: ", daily_limit: 1") { site, metNorway, log in
            let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try metNorway.requests().count == 1)
            let report = try Self.report(site)
            #expect(Set(report.cities.map { $0.provider ?? "" }) == ["met-norway", "open-meteo"], "\(report.cities)")
            #expect(report.cities.allSatisfy { $0.status == "fresh" })
            #expect(report.providers["met-norway"] == .init(requests: 1, answers: 1, failures: 1, fallbacks: 0))
            #expect(report.providers["open-meteo"]?.fallbacks == 1)
            #expect(run.stderr.contains("using open-meteo instead of met-norway"), "\(run.stderr)")
        }
    }

    /// Every provider failing: the city is rebuilt from the first of its chain with cached
    /// data, or fails, keeping its page; a city's own chain replaces the site's.
    @Test func whenEveryProviderFailsTheCacheServesAndACityMayHaveItsOwnChain() async throws {
        let cities = Self.oslo + "\n  - { name: Lisbon, country: PT, lat: 38.7223, lon: -9.1393, timezone: Europe/Lisbon, provider: open-meteo }"
        try await Self.withSite(cities: cities) { site, metNorway, log in
            let first = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(try metNorway.requests().count == 1, "Lisbon's own chain leaves MET out")
            #expect(Self.credits(try Self.page(site, "lisbon-pt")).contains("Open-Meteo.com"))
            let check = try await IsobarRun.launch(["check"], in: site.url)
            #expect(check.stdout.contains("providers for Lisbon: open-meteo"), "\(check.stdout)")

            // Both unreachable or refusing; MET's stored `Expires` forgotten, so it is asked.
            metNorway.stop()
            await log.setFailing(true)
            try FileManager.default.removeItem(at: site.url.appendingPathComponent(".isobar/cache/oslo-no/met-norway-forecast.headers.json"))
            let second = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
            #expect(second.status == 2, "\(second.stderr)")
            let report = try Self.report(site)
            let oslo = try #require(report.cities.first { $0.slug == "oslo-no" })
            #expect(oslo.status == "stale" && oslo.provider == "met-norway" && oslo.failed_providers == ["met-norway", "open-meteo"])
            #expect(second.stderr.contains("met-norway:") && second.stderr.contains("then open-meteo:"), "\(second.stderr)")
            let lisbon = try #require(report.cities.first { $0.slug == "lisbon-pt" })
            #expect(lisbon.status == "stale" && lisbon.provider == "open-meteo")
            #expect(report.providers["open-meteo"]?.failures == 2)
        }
    }

    @Test func aChainIsCheckedAsItIsWritten() throws {
        let file = URL(fileURLWithPath: "/tmp/isobar.yml")
        let base = "base_url: https://w.example.org/\ncontact: ops@example.org\ncities: [{ name: Oslo, country: \"NO\", timezone: Europe/Oslo }]\n"
        let config = try ConfigLoader.parse(base + "provider: [met-norway, open-meteo]\n", file: file)
        #expect(config.providers == [.metNorway, .openMeteo] && config.provider == .metNorway)
        #expect(try ConfigLoader.parse(base + "provider: open-meteo\n", file: file).providers == [.openMeteo])
        for (chain, said) in [("[]", "the list is empty"), ("[open-meteo, open-meteo]", "listed twice"),
                              ("[snapshot, open-meteo]", "snapshot cannot be part of a chain"), ("[met-norway, open-meteoo]", "did you mean \"open-meteo\"")] {
            do {
                _ = try ConfigLoader.parse(base + "provider: \(chain)\n", file: file)
                Issue.record("\(chain) was accepted")
            } catch {
                #expect("\(error)".contains(said), "\(error)")
            }
        }
        // MET anywhere in a chain, the site's or a city's, needs the contact.
        let contactless = "base_url: https://w.example.org/\nprovider: open-meteo\ncities: [{ name: Oslo, country: \"NO\", timezone: Europe/Oslo, provider: [open-meteo, met-norway] }]\n"
        do {
            _ = try ConfigLoader.parse(contactless, file: file)
            Issue.record("a city's chain with met-norway was accepted without a contact")
        } catch {
            #expect("\(error)".contains("met-norway needs a contact") && "\(error)".contains("isobar.yml:3:"), "\(error)")
        }
    }
}
