import Foundation
import Testing
@testable import IsobarCore

/// A live site of many towns spread over the demo's sample places, fetched from the
/// OpenWeather stand-in, and a run of the real binary on it with its clock set: what the
/// budget, interruption and multilingual suites drive.
enum TownsSite {
    /// The demo samples recorded from One Call: the stand-in answers for a request near one.
    static let places: [(lat: Double, lon: Double)] = [
        (51.5073, -0.1276), (48.8589, 2.32), (41.8933, 12.4829), (52.517, 13.3889),
        (40.7128, -74.006), (-23.5475, -46.6361), (35.6895, 139.6917),
    ]

    /// A live site of `count` cities spread over the sample places.
    static func make(_ server: OpenWeatherStandIn, cities count: Int, openweather: String = "", maxAge: String = "10m",
                     extra: (Int) -> String = { _ in "" }) throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        let cities = (0..<count).map { index in
            let place = places[index % places.count]
            return "  - { name: Town \(index + 1), country: GB, lat: \(place.lat), lon: \(place.lon)\(extra(index)) }"
        }
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: openweather
            alerts: [openweather]
            openweather: { base_url: "\(server.baseURL)", timeout: 20s, requests_per_minute: 100000\(openweather) }
            cache: { max_age: \(maxAge) }
            stale_after: 2d
            cities:
            \(cities.joined(separator: "\n"))
            """, to: "isobar.yml")
        return site
    }

    /// What a run's `--report` says, as far as these tests look.
    struct Report {
        var exitCode: Int
        var statuses: [String: Int]
        var sent: Int
        var refused: Int
        var budget: [String: Any]
        var summary: String
        /// The report file as it was written.
        var json: [String: Any] = [:]

        func count(_ status: String) -> Int { statuses[status, default: 0] }
    }

    /// One run of the real binary with its clock at `time` (`SOURCE_DATE_EPOCH`), in a
    /// process of its own so that its work never holds up the stand-in's threads.
    static func build(_ site: TemporaryFolder, at time: Date, key: String = OpenWeatherStandIn.key) async throws -> Report {
        let run = try await IsobarRun.launch(
            ["build", "--report", "report.json"], in: site.url,
            environment: ["OPENWEATHER_API_KEY": key, "SOURCE_DATE_EPOCH": String(Int(time.timeIntervalSince1970))])
        let data = try Data(contentsOf: site.url.appendingPathComponent("report.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var statuses: [String: Int] = [:]
        for city in json["cities"] as? [[String: Any]] ?? [] { statuses[city["status"] as? String ?? "?", default: 0] += 1 }
        let requests = json["requests"] as? [String: Any] ?? [:]
        return Report(exitCode: Int(run.status), statuses: statuses, sent: requests["sent"] as? Int ?? -1,
                      refused: requests["refused_by_budget"] as? Int ?? -1, budget: json["budget"] as? [String: Any] ?? [:],
                      summary: run.stderr, json: json)
    }
}
