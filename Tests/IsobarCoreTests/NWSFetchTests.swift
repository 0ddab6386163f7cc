import Foundation
import Testing
@testable import IsobarCore

/// `provider: nws`'s requests and config, without a server.
@Suite struct NWSRequestTests {
    @Test func theRequestsIdentifyTheSiteAndStayOnTheService() throws {
        let requests = NWSRequests(baseURL: URL(string: "https://api.weather.gov/")!, contact: "ops@example.org")
        let point = requests.points(latitude: 39.739236, longitude: -104.990251)
        #expect(point.url.absoluteString == "https://api.weather.gov/points/39.7392,-104.9903")
        #expect(point.headers["User-Agent"] == "isobar/\(Version.isobar) (ops@example.org)")
        #expect(point.headers["Accept"] == "application/geo+json")
        #expect(requests.forecast(.nwsGrid, url: "https://api.weather.gov/gridpoints/BOU/63,62")?.url.path == "/gridpoints/BOU/63,62")
        #expect(requests.forecast(.nwsGrid, url: "https://evil.example/gridpoints/BOU/63,62") == nil)
        #expect(requests.forecast(.nwsGrid, url: "http://api.weather.gov/gridpoints/BOU/63,62") == nil)
    }

    @Test func theContactIsNWSsOwnOrTheSitesAndRequired() throws {
        let base = "base_url: https://w.example.org/\nprovider: nws\ncities: [{ name: Denver, country: US }]\n"
        let file = URL(fileURLWithPath: "/tmp/isobar.yml")
        let config = try ConfigLoader.parse(base + "contact: ops@example.org\nnws: { contact: https://weather.example.org/, daily_limit: 5000 }\n", file: file)
        #expect(config.contact(for: .nws) == "https://weather.example.org/")
        #expect(config.nws.limits.daily == 5000)
        #expect(config.nws.baseURL.absoluteString == "https://api.weather.gov")
        #expect(try ConfigLoader.parse(base + "contact: ops@example.org\n", file: file).contact(for: .nws) == "ops@example.org")
        do {
            _ = try ConfigLoader.parse(base, file: file)
            Issue.record("an nws site without a contact was accepted")
        } catch {
            #expect("\(error)".contains("nws needs a contact") && "\(error)".contains("add `contact: you@example.org`"), "\(error)")
        }
        #expect(throws: IsobarError.self) { try ConfigLoader.parse(base + "contact: ops@example.org\nnws: { key: x }\n", file: file) }
    }
}

/// `provider: nws` through the real binary against a loopback stand-in of the NWS API
/// (`Tests/servers/nws_server.py`), which refuses what NWS refuses and logs each request.
@Suite(.serialized) struct NWSFetchTests {
    static func site(_ server: NWSStandIn, contact: String? = "ops@example.org", cities: String? = nil) throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        // max_age 0s: every build asks for the forecasts again; only the point is kept.
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: nws
            \(contact.map { "contact: \($0)" } ?? "")
            nws: { base_url: "\(server.baseURL)" }
            alerts: off
            cache: { max_age: 0s }
            cities:
            \(cities ?? "  - { name: Denver, country: US, state: CO, lat: 39.739236, lon: -104.990251 }")
            """, to: "isobar.yml")
        return site
    }

    @Test func asksThePointOnceThenItsForecasts() async throws {
        let server = try NWSStandIn()
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let first = try await IsobarRun.launch(["build"], in: site.url)
        #expect(first.status == 0, "\(first.stderr)")
        let sent = try server.requests()
        #expect(sent.first?.path == "/points/39.7392,-104.9903", "at most four decimals")
        #expect(Set(sent.dropFirst().map(\.path)) == ["/gridpoints/BOU/63,62/forecast/hourly", "/gridpoints/BOU/63,62/forecast", "/gridpoints/BOU/63,62"])
        #expect(sent.count == 4 && sent.allSatisfy { $0.status == 200 })
        #expect(sent.allSatisfy { $0.user_agent == "isobar/\(Version.isobar) (ops@example.org)" && $0.accept == "application/geo+json" })
        let folder = site.url.appendingPathComponent(".isobar/cache/denver-us")
        for name in ["nws-points.json", "nws-forecast-hourly.json", "nws-forecast.json", "nws-grid.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("nws-grid.json")) == Data(contentsOf: NWSStandIn.folder.appendingPathComponent("nws-grid.json")))
        let page = try String(contentsOf: site.url.appendingPathComponent("_site/denver-us/index.html"), encoding: .utf8)
        #expect(page.contains("National Weather Service (NOAA)"))
        #expect(page.contains("New snow accumulation of"), "the 12-hour periods' text is the days' summary")

        // The point is kept for good: the second build asks only for the forecasts.
        let second = try await IsobarRun.launch(["build"], in: site.url)
        #expect(second.status == 0, "\(second.stderr)")
        let again = try server.requests().dropFirst(4)
        #expect(again.count == 3 && !again.contains { $0.path.hasPrefix("/points/") }, "\(again.map(\.path))")

        // Offline, nothing is sent.
        let offline = try await IsobarRun.launch(["build", "--offline"], in: site.url)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try server.requests().count == 7)
    }

    /// NWS covers the US only: a city elsewhere fails with a message naming it, the others build.
    @Test func aPointOutsideTheUSIsExplained() async throws {
        let server = try NWSStandIn()
        defer { server.stop() }
        let site = try Self.site(server, cities: """
              - { name: Denver, country: US, lat: 39.7392, lon: -104.9903 }
              - { name: London, country: GB, lat: 51.5074, lon: -0.1278, timezone: Europe/London }
            """)
        defer { site.cleanup() }
        let checked = try await IsobarRun.launch(["check"], in: site.url)
        #expect(checked.status == 0 && checked.stderr.contains("London (GB) is outside the United States"), "\(checked.stderr)")
        #expect(!checked.stderr.contains("Denver (US) is outside"))
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("London") && run.stderr.contains("covers only the United States"), "\(run.stderr)")
        #expect(run.stderr.contains("Data Unavailable For Requested Point"), "NWS's own words: \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/denver-us/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".isobar/cache/london-gb/nws-points.json").path))
        #expect(try server.requests().filter { $0.path.hasPrefix("/points/") }.map(\.status).sorted() == [200, 404])
    }

    /// A forecast URL that NWS no longer knows (its office's grid redrawn): the stored
    /// point is asked again, once, in the same run; a fresh point's URL that is gone too
    /// fails the fetch with NWS's answer (the city falls back on what it has).
    @Test func aForecastURLGoneAsksThePointAgain() async throws {
        let server = try NWSStandIn(mode: "gone")
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let first = try await IsobarRun.launch(["build"], in: site.url)
        // The hourly and 12-hour forecasts came: the page is built from them, without the grid.
        #expect(first.status == 2 && first.stderr.contains("1 from stale data"), "\(first.stderr)")
        #expect(first.stderr.contains("NWS /gridpoints/…: NWS refused the request (HTTP 404: Not Found: Not Found)"), "\(first.stderr)")
        #expect(try server.requests().filter { $0.path.hasPrefix("/points/") }.count == 1, "a point just fetched is not asked again")
        // The next run starts from the stored point, meets the 404 and asks the point again.
        _ = try await IsobarRun.launch(["build"], in: site.url)
        #expect(try server.requests().filter { $0.path.hasPrefix("/points/") }.count == 2)
    }

    @Test func checkAndBuildRefuseASiteWithoutContact() async throws {
        let server = try NWSStandIn()
        defer { server.stop() }
        let site = try Self.site(server, contact: nil)
        defer { site.cleanup() }
        for command in ["check", "build"] {
            let run = try await IsobarRun.launch([command], in: site.url)
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("nws needs a contact") && run.stderr.contains("add `contact: you@example.org`"), "\(command): \(run.stderr)")
        }
        #expect(try server.requests().isEmpty)
    }
}
