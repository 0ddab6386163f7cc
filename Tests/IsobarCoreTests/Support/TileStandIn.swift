import Foundation

/// `Tests/servers/tile_server.py` on 127.0.0.1 and a free port: an XYZ tile server
/// drawing numbered test tiles (Pillow), refusing what OpenStreetMap's tile usage policy
/// refuses, and logging every request (`requests()`); stopped by its process id.
final class TileStandIn: @unchecked Sendable {
    /// One logged request, as the server wrote it.
    struct Request: Decodable {
        var path: String
        var z: Int?
        var x: Int?
        var y: Int?
        var user_agent: String?
        var if_none_match: String?
        var status: Int
        var client_port: Int

        var tile: String? { z.map { "\($0)/\(x!)/\(y!)" } }
    }

    let port: Int
    let folder: URL
    private var server: DetachedServer?
    var log: URL { folder.appendingPathComponent("requests.jsonl") }
    /// The `map: { tiles: … }` template that reaches it.
    var template: String { "http://127.0.0.1:\(port)/tiles/{z}/{x}/{y}.png" }

    /// `mode`: ok, missing (404), throttle (429), forbidden (403), unavailable (503), slow
    /// (20 s before each answer) or html (an error page sent as a 200); `maxAge`: the
    /// seconds of each tile's `Cache-Control: max-age`.
    init(mode: String = "ok", maxAge: Int = 86_400) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try SSHServer.freePort()
        server = try DetachedServer(script: "tile_server.py", arguments: [String(port), log.path, mode, String(maxAge)],
                                    folder: folder, port: port, ready: folder.appendingPathComponent("requests.jsonl.ready"))
    }

    func requests() throws -> [Request] {
        FileManager.default.fileExists(atPath: log.path) ? try DetachedServer.logged(log) : []
    }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
