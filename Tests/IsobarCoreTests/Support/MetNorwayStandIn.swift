import Foundation

/// `Tests/servers/met_norway_server.py`: MET Norway's `complete` answering with the Bergen
/// fixture and checking what MET's terms ask of a client.
final class MetNorwayStandIn: LoggingStandIn<MetNorwayStandIn.Request>, @unchecked Sendable {
    /// One logged request, as the server wrote it.
    struct Request: Decodable {
        var time: Double
        var query: [String: String]
        var user_agent: String?
        var if_modified_since: String?
        var accept_encoding: String?
        var status: Int
        /// Sent before the `Expires` the server last gave for its coordinates.
        var early: Bool
        var expires: String?
    }

    /// The server's fixed `Last-Modified`.
    static let lastModified = "Thu, 26 Nov 2026 09:12:04 GMT"
    static let body = TestPaths.repository.appendingPathComponent("Tests/IsobarCoreTests/Fixtures/met-norway/complete.json")
    override var baseURL: String { super.baseURL + "/weatherapi/locationforecast/2.0" }

    /// The body a `live` server answers with: the fixture, its times moved to the hour it started.
    var liveBody: URL { log.appendingPathExtension("body") }

    /// `mode`: ok, live (ok, the body's times moved to now), deprecated (203), throttle (429)
    /// or forbidden (403); `expiresIn`: the
    /// seconds each answer's `Expires` lies ahead.
    init(mode: String = "ok", expiresIn: Int = 600) throws {
        try super.init(script: "met_norway_server.py", name: "metno") { log in [Self.body.path, log.path, mode, String(expiresIn)] }
    }
}
