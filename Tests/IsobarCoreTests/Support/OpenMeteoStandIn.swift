import FlyingFox
import Foundation
import Testing
@testable import IsobarCore

/// A loopback stand-in for Open-Meteo's forecast, air-quality and geocoding endpoints,
/// answering with the demo's Oslo and Lisbon samples, that logs every request it gets.
enum OpenMeteoStandIn {
    actor Log {
        var seen: [(path: String, query: [String: String])] = []
        var failForecast = false
        func add(_ path: String, _ query: [String: String]) { seen.append((path, query)) }
        func count(_ path: String? = nil) -> Int { path.map { p in seen.filter { $0.path == p }.count } ?? seen.count }
        func query(_ path: String) -> [String: String]? { seen.first { $0.path == path }?.query }
        func setFailing(_ value: Bool) { failForecast = value }
    }

    static func serve(_ log: Log) async throws -> (HTTPServer, Task<Void, Error>, UInt16) {
        let server = try HTTPServer.loopback(timeout: 30)
        let samples = TestPaths.repository.appendingPathComponent("Samples")
        for (path, file) in [("/v1/forecast", "open-meteo-forecast.json"), ("/v1/air-quality", "open-meteo-air-quality.json"),
                             ("/v1/search", "open-meteo-geocode.json")] {
            await server.appendRoute(HTTPRoute("GET \(path)")) { request in
                var query: [String: String] = [:]
                for item in request.query { query[item.name] = item.value }
                await log.add(path, query)
                if path == "/v1/forecast", await log.failForecast {
                    return FlyingFox.HTTPResponse(statusCode: .badRequest, body: Data(#"{"error":true,"reason":"Cannot initialize WeatherVariable from invalid String value"}"#.utf8))
                }
                // Lisbon by name or by a longitude west of Greenwich; Oslo otherwise.
                let lisbon = query["name"] == "Lisbon" || (Double(query["longitude"] ?? "") ?? 0) < 0
                let data = try Data(contentsOf: samples.appendingPathComponent("\(lisbon ? "lisbon-pt" : "oslo-no")/\(file)"))
                return FlyingFox.HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Type"): "application/json"], body: data)
            }
        }
        let task = Task { try await server.run() }
        try await server.waitUntilListeningOnABusyMachine()
        guard case .ip4(_, let port) = await server.listeningAddress else { throw CancellationError() }
        return (server, task, port)
    }
}
