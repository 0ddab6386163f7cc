import Foundation
import Testing
@testable import IsobarCore

/// Official warnings for every site, whatever its forecast provider: the real binary with
/// MET Norway's stand-in for the forecasts and the warnings stand-in for the NWS and MeteoAlarm.
@Suite(.serialized) struct WarningsFetchTests {
    static let cities = """
          - { name: Bergen, country: "NO", lat: 60.39126, lon: 5.32214, timezone: Europe/Oslo }
          - { name: Oslo, country: "NO", lat: 59.9139, lon: 10.7522, timezone: Europe/Oslo }
          - { name: New York, country: US, lat: 40.712776, lon: -74.005974, timezone: America/New_York }
          - { name: Tokyo, country: JP, lat: 35.6895, lon: 139.6917, timezone: Asia/Tokyo }
        """

    static func site(_ forecasts: MetNorwayStandIn, _ warnings: WarningsStandIn, alerts: String = "auto", contact: String = "contact: ops@example.org") throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: met-norway
            \(contact)
            alerts: \(alerts)
            met_norway: { base_url: "\(forecasts.baseURL)", contact: ops@example.org }
            nws: { base_url: "\(warnings.baseURL)" }
            meteoalarm: { base_url: "\(warnings.baseURL)" }
            cities:
            \(cities)
            """, to: "isobar.yml")
        return site
    }

    func page(_ site: TemporaryFolder, _ path: String) throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("_site/" + path), encoding: .utf8)
    }

    @Test func warningsWhoseAreaHoldsTheCityAreOnItsPageTheFeedAndTheIndex() async throws {
        let forecasts = try MetNorwayStandIn()
        defer { forecasts.stop() }
        let warnings = try WarningsStandIn()
        defer { warnings.stop() }
        let site = try Self.site(forecasts, warnings)
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")

        let bergen = try page(site, "bergen-no/index.html")
        #expect(bergen.contains("Yellow warning for wind, Vestland"))
        #expect(bergen.contains(#"<span class="alert-severity">Moderate</span>"#))
        #expect(bergen.contains("Secure loose objects."))
        #expect(bergen.contains("<bdi>Vestland</bdi>") && bergen.contains("Source: MeteoAlarm"))
        #expect(!bergen.contains("Troms"), "the snow warning's polygon does not hold Bergen")
        #expect(!bergen.contains("no particular awareness"), "green is no warning")
        #expect(!bergen.contains("Heavy rain"), "an expired warning is not shown")
        let oslo = try page(site, "oslo-no/index.html")
        #expect(oslo.contains("No warnings in force") && !oslo.contains("Vestland"))
        let newYork = try page(site, "new-york-us/index.html")
        #expect(newYork.contains("Winter Storm Warning") && newYork.contains(#"<span class="alert-severity">Severe</span>"#))
        #expect(newYork.contains("NWS Upton NY") && newYork.contains("keep an extra flashlight"))
        let tokyo = try page(site, "tokyo-jp/index.html")
        #expect(tokyo.contains("Official weather warnings are not available for this place"))
        #expect(!tokyo.contains("No warnings in force"))

        let feed = try page(site, "alerts.xml")
        #expect(feed.contains("Bergen: Yellow warning for wind, Vestland") && feed.contains("New York: Winter Storm Warning"))
        #expect(!feed.contains("Oslo:") && !feed.contains("Tokyo:") && !feed.contains("Troms"))
        let index = try page(site, "index.html")
        #expect(index.components(separatedBy: "card-alert-marker").count == 3, "Bergen's and New York's cards are marked")
        #expect(index.contains(#"card-alert-marker alert-moderate"><span aria-hidden="true">⚠</span> <span class="alert-severity">Moderate</span>"#))
        #expect(index.contains(#"card-alert-marker alert-severe"><span aria-hidden="true">⚠</span> <span class="alert-severity">Severe</span>"#))
        let json = try page(site, "bergen-no/forecast.json")
        #expect(json.contains(#""severity":"Moderate""#) && json.contains(#""source":"meteoalarm""#))

        let sent = try warnings.requests()
        let feeds = sent.filter { $0.path.hasSuffix("/feeds-norway") }
        #expect(feeds.count == 1, "one MeteoAlarm request for Norway's two cities")
        let nws = sent.filter { $0.path.hasSuffix("/alerts/active") }
        #expect(nws.count == 1 && nws.first?.query["point"] == "40.7128,-74.006")
        #expect(nws.first?.user_agent == "isobar/\(Version.isobar) ops@example.org")
        #expect(sent.count == 2, "no source is asked for Tokyo: \(sent.map(\.path))")
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".isobar/cache/_meteoalarm/norway/meteoalarm-warnings.json").path))
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".isobar/cache/new-york-us/nws-alerts.json").path))

        // Offline: built from what is stored, nothing sent.
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("_site/bergen-no/index.html"))
        let offline = try await IsobarRun.launch(["build", "--offline"], in: site.url)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try page(site, "bergen-no/index.html").contains("Yellow warning for wind, Vestland"))
        #expect(try warnings.requests().count == 2)
    }

    @Test func aFailingWarningSourceLeavesThePagesBuiltAndSaysSo() async throws {
        let forecasts = try MetNorwayStandIn()
        defer { forecasts.stop() }
        let warnings = try WarningsStandIn(mode: "fail")
        defer { warnings.stop() }
        let site = try Self.site(forecasts, warnings)
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
        #expect(run.status == 0, "a warning source's failure is not the city's: \(run.stderr)")
        let report = try String(contentsOf: site.url.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("warnings from MeteoAlarm not shown") && report.contains("warnings from NWS not shown"), "\(report)")
        #expect(try page(site, "bergen-no/index.html").contains("Warnings from MeteoAlarm could not be fetched"))
        #expect(try page(site, "new-york-us/index.html").contains("Warnings from NWS could not be fetched"))
        #expect(run.stderr.contains("Bergen: warnings from MeteoAlarm not shown") && run.stderr.contains("HTTP 503"), "\(run.stderr)")
    }

    /// A source down after a good run: its stored answer, younger than `stale_after`, stands
    /// in (the page keeps the warning), and the report says so.
    @Test func theLastStoredWarningsStandInForASourceThatFails() async throws {
        let forecasts = try MetNorwayStandIn()
        defer { forecasts.stop() }
        let good = try WarningsStandIn()
        defer { good.stop() }
        let site = try Self.site(forecasts, good)
        defer { site.cleanup() }
        #expect(try await IsobarRun.launch(["build"], in: site.url).status == 0)
        let down = try WarningsStandIn(mode: "fail")
        defer { down.stop() }
        let config = site.url.appendingPathComponent("isobar.yml")
        try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: good.baseURL, with: down.baseURL)
            .appending("\ncache: { max_age: 0s }\n").write(to: config, atomically: true, encoding: .utf8)
        let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try down.requests().contains { $0.path.hasSuffix("/feeds-norway") && $0.status == 503 }, "the feed was asked for again")
        #expect(try page(site, "bergen-no/index.html").contains("Yellow warning for wind, Vestland"))
        #expect(try String(contentsOf: site.url.appendingPathComponent("report.json"), encoding: .utf8).contains("warnings from MeteoAlarm shown as last stored"))
    }

    @Test func alertsOffAndACityWithoutSourceSayWarningsAreNotAvailable() async throws {
        let forecasts = try MetNorwayStandIn()
        defer { forecasts.stop() }
        let warnings = try WarningsStandIn()
        defer { warnings.stop() }
        let site = try Self.site(forecasts, warnings, alerts: "off")
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        for slug in ["bergen-no", "new-york-us", "tokyo-jp"] {
            #expect(try page(site, slug + "/index.html").contains("Official weather warnings are not available for this place"), "\(slug)")
        }
        #expect(try warnings.requests().isEmpty)
    }

    @Test func theNWSWithoutAContactIsRefusedByNameAndNamedByCheck() async throws {
        let forecasts = try MetNorwayStandIn()
        defer { forecasts.stop() }
        let warnings = try WarningsStandIn()
        defer { warnings.stop() }
        let named = try Self.site(forecasts, warnings, alerts: "[nws, meteoalarm]", contact: "")
        defer { named.cleanup() }
        let refused = try await IsobarRun.launch(["check"], in: named.url)
        #expect(refused.status != 0 && refused.stderr.contains("nws needs a contact"), "\(refused.stderr)")
        let auto = try Self.site(forecasts, warnings, contact: "")
        defer { auto.cleanup() }
        let checked = try await IsobarRun.launch(["check"], in: auto.url)
        #expect((checked.stdout + checked.stderr).contains("no official warnings for New York"), "\(checked.stdout)\(checked.stderr)")
    }
}
