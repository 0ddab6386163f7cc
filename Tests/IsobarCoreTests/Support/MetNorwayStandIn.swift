import Foundation

/// `Tests/servers/met_norway_server.py` on 127.0.0.1 and a free port: MET Norway's
/// `complete` answering with the Bergen fixture, checking what MET's terms ask of a client,
/// and logging every request (`requests()`); stopped by its process id.
final class MetNorwayStandIn: @unchecked Sendable {
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
    let port: Int
    let folder: URL
    private var server: DetachedServer?
    var log: URL { folder.appendingPathComponent("requests.jsonl") }
    var baseURL: String { "http://127.0.0.1:\(port)/weatherapi/locationforecast/2.0" }

    /// `mode`: ok, deprecated (203), throttle (429) or forbidden (403); `expiresIn`: the
    /// seconds each answer's `Expires` lies ahead.
    init(mode: String = "ok", expiresIn: Int = 600) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-metno-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try SSHServer.freePort()
        server = try DetachedServer(script: "met_norway_server.py", arguments: [String(port), Self.body.path, log.path, mode, String(expiresIn)],
                                    folder: folder, port: port, ready: folder.appendingPathComponent("requests.jsonl.ready"))
    }

    func requests() throws -> [Request] { try DetachedServer.logged(log) }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
